package io.locusdb.bench.sim;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Reads scenario files: one setting per line, {@code #} starts a comment.
 *
 * <pre>
 * name fig10
 * machine 4x15                       # preset the paper ran it on
 * seconds 300
 * rows 50000000                      # per table, before scaling
 * window 30                          # throughput slope window (s)
 * table TBL1 node 0                  # one part on node 0
 * table TBL4 nodes 2,3 placer-partitioned
 * table TBL5 node 0 threads-on any   # its tasks wherever the OS would run them (threads-on N: on node N)
 * table lineitem node 0 rows 180000000 row-bytes 40   # its own rows and memory per row (a TPC-H-like table)
 * group lineitem_orders lineitem,orders  # copartitioned tables, placed, moved, split and merged together
 * template Q6 weight 1 scan lineitem 22 then aggregate lineitem 0.02 then merge lineitem 1
 *                                    # steps one after another: scan T BITS, materialize|aggregate|probe T FRACTION,
 *                                    # merge T GROUPS (see Scenario.Step)
 * clients 512 mix Q1-22 [from S] [to S]   # 512 clients in all, each query a template drawn by weight
 * cost probe 40 7.6                  # a step kind's CPU ns and bytes per row here (merge: per group), instead of
 *                                    # the simulator's defaults (materialize, aggregate, probe or merge)
 * tables TBL1-64 blocks 8            # TBL1-8 on node 0, TBL9-16 on node 1, ...
 * tables TBL1-8 across all           # every table with one part on every node
 * tables TBL1-8 round-robin          # TBLi on node (i-1) mod nodes
 * clients 64 a TBL1 selectivity 0.00001 [from S] [to S]    # 64 clients per listed table
 * placer on [from S] | placer off
 * stealing adaptive | always | never
 * cores all | dense | sparse | adaptive   # every hardware thread, or the elastic allocation in that mode
 * sweep selectivity 0.00001,0.001,0.1
 * sweep layout aligned,1-ahead,interleave,default   # the NUMA-effects paper's strategies (tables as instances)
 * </pre>
 * Errors name the line and what is wrong with it.
 */
public final class ScenarioParser {
    private ScenarioParser() {
    }

    /** A bundled scenario ({@code fig10}, {@code fig11}, ...) or a file path. */
    public static Scenario load(String nameOrPath, int nodesOverride) throws IOException {
        String resource = "/scenarios/" + nameOrPath + ".scenario";
        try (InputStream in = ScenarioParser.class.getResourceAsStream(resource)) {
            if (in != null) {
                return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), nameOrPath, nodesOverride);
            }
        }
        Path path = Path.of(nameOrPath);
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException("no scenario '" + nameOrPath + "': neither a bundled one ("
                    + String.join(", ", bundled()) + ") nor a file");
        }
        return parse(Files.readString(path), path.toString(), nodesOverride);
    }

    public static List<String> bundled() {
        return List.of("fig10", "fig11", "fig12", "fig14", "fig16", "numa-effects", "elastic", "calibration");
    }

    /**
     * @param nodesOverride nodes of the machine the scenario will run on (0: the scenario's own machine preset),
     *                      for layouts given as {@code across all}, {@code blocks} and {@code round-robin}
     */
    public static Scenario parse(String text, String source, int nodesOverride) {
        String name = source;
        String description = "";
        String machine = "4x15";
        double seconds = 300;
        long rows = 50_000_000;
        double window = 30;
        double placerFrom = -1;
        String stealing = "adaptive";
        String cores = "all";
        List<Scenario.TableSpec> tables = new ArrayList<>();
        List<Scenario.ClientSpec> clients = new ArrayList<>();
        List<Scenario.Sweep> sweeps = new ArrayList<>();
        List<Scenario.GroupSpec> groups = new ArrayList<>();
        List<Scenario.Template> templates = new ArrayList<>();
        List<Scenario.StepCost> costs = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].replaceFirst("#.*", "").trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] w = line.split("\\s+");
            String where = source + ":" + (i + 1) + ": ";
            try {
                switch (w[0]) {
                    case "name" -> name = w[1];
                    case "description" -> description = line.substring("description".length()).trim();
                    case "machine" -> machine = w[1];
                    case "seconds" -> seconds = positive(w[1], "seconds");
                    case "rows" -> rows = (long) positive(w[1], "rows");
                    case "window" -> window = positive(w[1], "window");
                    case "stealing" -> stealing = stealingPolicy(w[1]);
                    case "cores" -> cores = coreMode(w[1]);
                    case "placer" -> placerFrom = switch (w[1]) {
                        case "on" -> w.length > 3 && w[2].equals("from") ? nonNegative(w[3], "placer from") : 0;
                        case "off" -> -1;
                        default -> throw new IllegalArgumentException("placer is 'on [from S]' or 'off'");
                    };
                    case "table" -> tables.add(table(w));
                    case "tables" -> tables.addAll(tables(w, nodes(nodesOverride, machine)));
                    case "clients" -> clients.add(clients(w, seconds));
                    case "group" -> groups.add(new Scenario.GroupSpec(w[1], range(w[2])));
                    case "template" -> templates.add(template(w));
                    case "cost" -> {
                        if (w.length > 4) {
                            throw new IllegalArgumentException("a cost line is 'cost KIND NANOS BYTES', not more");
                        }
                        Scenario.StepCost cost = new Scenario.StepCost(w[1], number(w[2], "cost nanoseconds"),
                                number(w[3], "cost bytes"));
                        if (costs.stream().anyMatch(c -> c.kind().equals(cost.kind()))) {
                            throw new IllegalArgumentException("the cost of " + cost.kind() + " is set twice");
                        }
                        costs.add(cost);
                    }
                    case "sweep" -> sweeps.add(new Scenario.Sweep(sweepSetting(w[1]),
                            Arrays.asList(w[2].split(","))));
                    default -> throw new IllegalArgumentException("unknown setting '" + w[0] + "'");
                }
            } catch (ArrayIndexOutOfBoundsException e) {
                throw new IllegalArgumentException(where + "'" + w[0] + "' is missing a value");
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + e.getMessage(), e);
            }
        }
        if (tables.isEmpty() || clients.isEmpty()) {
            throw new IllegalArgumentException(source + ": a scenario needs tables and clients");
        }
        int nodes = nodes(nodesOverride, machine);
        for (Scenario.TableSpec t : tables) {
            for (int node : t.nodes()) {
                if (node < 0 || node >= nodes) {
                    throw new IllegalArgumentException(source + ": table " + t.name() + " is placed on node " + node
                            + ", but the machine has " + nodes + " nodes");
                }
            }
        }
        List<String> names = tables.stream().map(Scenario.TableSpec::name).toList();
        List<String> templateNames = templates.stream().map(Scenario.Template::name).toList();
        for (Scenario.ClientSpec c : clients) {
            for (String t : c.tables()) {
                if (!names.contains(t)) {
                    throw new IllegalArgumentException(source + ": clients target table " + t
                            + ", which the scenario does not declare");
                }
            }
            for (String t : c.templates()) {
                if (!templateNames.contains(t)) {
                    throw new IllegalArgumentException(source + ": clients draw template " + t
                            + ", which the scenario does not declare");
                }
            }
        }
        for (Scenario.Template t : templates) {
            for (Scenario.Step step : t.steps()) {
                if (!names.contains(step.table())) {
                    throw new IllegalArgumentException(source + ": template " + t.name() + " reads table "
                            + step.table() + ", which the scenario does not declare");
                }
            }
        }
        checkGroups(source, groups, tables);
        return new Scenario(name, description, machine, seconds, rows, tables, clients, placerFrom, stealing,
                cores, sweeps, window, groups, templates, costs);
    }

    private static int nodes(int override, String machine) {
        return override > 0 ? override : nodesOf(machine);
    }

    /** Nodes of a machine a scenario names: a preset's, or two for {@code here} (this machine as {@code fake:2}). */
    public static int nodesOf(String machine) {
        return machine.equals(MachineModel.HERE) ? 2 : MachineModel.preset(machine).nodes();
    }

    /** {@code threads-on N} or {@code threads-on any} among a table line's words; the data's node otherwise. */
    private static int threadsOn(String[] w) {
        for (int k = 0; k + 1 < w.length; k++) {
            if (w[k].equals("threads-on")) {
                return w[k + 1].equals("any") ? Scenario.TableSpec.ANY_NODE : integer(w[k + 1]);
            }
        }
        return Scenario.TableSpec.DATA_NODE;
    }

    private static Scenario.TableSpec table(String[] w) {
        boolean placerPartitioned = Arrays.asList(w).contains("placer-partitioned");
        long rows = 0;
        double rowBytes = 0;
        for (int k = 4; k < w.length; k++) {
            switch (w[k]) {
                case "rows" -> rows = (long) positive(w[++k], "rows");
                case "row-bytes" -> rowBytes = positive(w[++k], "row-bytes");
                case "threads-on" -> k++;
                case "placer-partitioned" -> {
                }
                default -> throw new IllegalArgumentException("unknown table setting '" + w[k] + "' (expected rows,"
                        + " row-bytes, threads-on or placer-partitioned)");
            }
        }
        List<Integer> nodes = switch (w[2]) {
            case "node" -> List.of(integer(w[3]));
            case "nodes" -> Arrays.stream(w[3].split(",")).map(ScenarioParser::integer).toList();
            default -> throw new IllegalArgumentException("a table is 'table NAME node N' or 'table NAME nodes"
                    + " A,B,... [placer-partitioned]'");
        };
        return new Scenario.TableSpec(w[1], nodes, w[2].equals("nodes") && placerPartitioned, threadsOn(w), rows,
                rowBytes);
    }

    /** {@code template NAME [weight W] KIND TABLE AMOUNT [then KIND TABLE AMOUNT]...}. */
    private static Scenario.Template template(String[] w) {
        int k = 2;
        double weight = 1;
        if (w[k].equals("weight")) {
            weight = positive(w[k + 1], "weight");
            k += 2;
        }
        List<Scenario.Step> steps = new ArrayList<>();
        while (true) {
            steps.add(new Scenario.Step(w[k], w[k + 1], positive(w[k + 2], w[k] + " " + w[k + 1])));
            k += 3;
            if (k >= w.length) {
                break;
            }
            if (!w[k].equals("then")) {
                throw new IllegalArgumentException("template " + w[1] + ": steps are joined by 'then', found '"
                        + w[k] + "'");
            }
            k++;
        }
        return new Scenario.Template(w[1], weight, steps);
    }

    /** A group's tables exist, belong to no other group and start with the same parts on the same nodes. */
    private static void checkGroups(String source, List<Scenario.GroupSpec> groups,
                                    List<Scenario.TableSpec> tables) {
        List<String> grouped = new ArrayList<>();
        for (Scenario.GroupSpec g : groups) {
            List<Integer> layout = null;
            for (String name : g.tables()) {
                Scenario.TableSpec t = tables.stream().filter(x -> x.name().equals(name)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException(source + ": group " + g.name()
                                + " names table " + name + ", which the scenario does not declare"));
                if (grouped.contains(name)) {
                    throw new IllegalArgumentException(source + ": table " + name + " is in two groups");
                }
                grouped.add(name);
                if (layout != null && !layout.equals(t.nodes())) {
                    throw new IllegalArgumentException(source + ": group " + g.name() + "'s tables must start on"
                            + " the same nodes, but " + name + " is on " + t.nodes() + " and the first on " + layout);
                }
                layout = t.nodes();
            }
        }
    }

    private static List<Scenario.TableSpec> tables(String[] w, int nodes) {
        List<String> names = range(w[1]);
        boolean placerPartitioned = Arrays.asList(w).contains("placer-partitioned");
        int threads = threadsOn(w);
        List<Scenario.TableSpec> out = new ArrayList<>();
        for (int k = 0; k < names.size(); k++) {
            List<Integer> where = switch (w[2]) {
                case "blocks" -> List.of(Math.min(nodes - 1, k / integer(w[3])));
                case "round-robin" -> List.of(k % nodes);
                case "across" -> {
                    List<Integer> all = new ArrayList<>();
                    for (int n = 0; n < nodes; n++) {
                        all.add(n);
                    }
                    yield all;
                }
                case "node" -> List.of(integer(w[3]));
                default -> throw new IllegalArgumentException("tables are laid out 'blocks N', 'round-robin',"
                        + " 'across all' or 'node N'");
            };
            out.add(new Scenario.TableSpec(names.get(k), where, placerPartitioned, threads));
        }
        return out;
    }

    private static Scenario.ClientSpec clients(String[] w, double seconds) {
        int count = integer(w[1]);
        boolean mix = w[2].equals("mix");
        if (!mix && (w[2].length() != 1 || "abc".indexOf(w[2].charAt(0)) < 0)) {
            throw new IllegalArgumentException("query type '" + w[2] + "' is not a, b, c or mix");
        }
        List<String> tables = mix ? List.of() : range(w[3]);
        List<String> templates = mix ? range(w[3]) : List.of();
        double selectivity = 0.001;
        double from = 0;
        double to = seconds;
        for (int k = 4; k + 1 < w.length; k += 2) {
            switch (w[k]) {
                case "selectivity" -> {
                    selectivity = Double.parseDouble(w[k + 1]);
                    if (!(selectivity > 0 && selectivity <= 1)) {
                        throw new IllegalArgumentException("selectivity is a fraction in (0, 1], got " + w[k + 1]);
                    }
                }
                case "from" -> from = nonNegative(w[k + 1], "from");
                case "to" -> to = nonNegative(w[k + 1], "to");
                default -> throw new IllegalArgumentException("unknown client setting '" + w[k] + "'");
            }
        }
        if (count < 1 || !(to > from)) {
            throw new IllegalArgumentException("clients need a positive count and 'to' after 'from'");
        }
        return new Scenario.ClientSpec(count, mix ? Scenario.ClientSpec.MIX : w[2].charAt(0), tables, selectivity,
                from, to, templates);
    }

    /** {@code TBL1-8} → TBL1..TBL8; {@code TBL1,TBL5} → both; a plain name → itself. */
    static List<String> range(String spec) {
        List<String> out = new ArrayList<>();
        for (String item : spec.split(",")) {
            int dash = item.indexOf('-');
            if (dash < 0) {
                out.add(item);
                continue;
            }
            String left = item.substring(0, dash);
            int digits = left.length();
            while (digits > 0 && Character.isDigit(left.charAt(digits - 1))) {
                digits--;
            }
            String prefix = left.substring(0, digits);
            int from = integer(left.substring(digits));
            int to = integer(item.substring(dash + 1));
            if (to < from) {
                throw new IllegalArgumentException("range " + item + " runs backwards");
            }
            for (int k = from; k <= to; k++) {
                out.add(prefix + k);
            }
        }
        return out;
    }

    private static String stealingPolicy(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        if (!List.of("always", "never", "adaptive").contains(v)) {
            throw new IllegalArgumentException("stealing is always, never or adaptive, got '" + value + "'");
        }
        return v;
    }

    private static String coreMode(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        if (!CORE_MODES.contains(v)) {
            throw new IllegalArgumentException("cores are all, dense, sparse or adaptive, got '" + value + "'");
        }
        return v;
    }

    static final List<String> CORE_MODES = List.of("all", "dense", "sparse", "adaptive");

    private static String sweepSetting(String setting) {
        if (!List.of("selectivity", "stealing", "layout", "cores").contains(setting)) {
            throw new IllegalArgumentException("a sweep changes selectivity, stealing, layout or cores, not '"
                    + setting + "'");
        }
        return setting;
    }

    private static int integer(String v) {
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + v + "' is not a whole number");
        }
    }

    private static double positive(String v, String what) {
        double d = number(v, what);
        if (!(d > 0)) {
            throw new IllegalArgumentException(what + " must be positive, got " + v);
        }
        return d;
    }

    private static double nonNegative(String v, String what) {
        double d = number(v, what);
        if (!(d >= 0)) {
            throw new IllegalArgumentException(what + " cannot be negative, got " + v);
        }
        return d;
    }

    private static double number(String v, String what) {
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + ": '" + v + "' is not a number");
        }
        if (!Double.isFinite(d)) {
            throw new IllegalArgumentException(what + ": '" + v + "' is not a finite number");
        }
        return d;
    }
}
