package io.locusdb.bench.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * One experiment of the adaptive-placement paper's benchmark, as a scenario file declares it (see
 * {@link ScenarioParser}): the machine it was run on, the tables with their initial placement, the clients with
 * their queries and when they run, and whether the placer and which stealing policy are on. The simulator and the
 * real-engine driver read the same scenarios.
 *
 * @param rows         rows per table at scale 1 (the paper's 50 million)
 * @param placerFrom   second from which the placer decides (negative: never)
 * @param stealing     {@code always}, {@code never} or {@code adaptive}
 * @param cores        {@code all} (every hardware thread works) or an elastic allocation mode of the
 *                     elastic-allocation paper ({@code dense}, {@code sparse}, {@code adaptive}) run by the engine's
 *                     {@code ElasticCoreController}
 * @param sweeps       runs to repeat with one setting changed ({@code selectivity} or {@code stealing}), empty for
 *                     one run
 * @param windowSeconds the window of the throughput slope in timelines (the paper's 30 s)
 * @param groups       table groups: tables whose parts are copartitioned and placed together
 * @param templates    query templates that clients of type {@code m} draw from (a query mix such as TPC-H's)
 * @param costs        what a step kind costs per row in this scenario, where it is not the simulator's default
 *                     (a workload whose operators do more or less work per row than the benchmark's queries)
 */
public record Scenario(String name, String description, String machine, double seconds, long rows,
                       List<TableSpec> tables, List<ClientSpec> clients, double placerFrom, String stealing,
                       String cores, List<Sweep> sweeps, double windowSeconds, List<GroupSpec> groups,
                       List<Template> templates, List<StepCost> costs) {

    /**
     * A table and where its parts start.
     *
     * @param nodes             the node of each part (one entry: one part)
     * @param placerPartitioned whether the placer may merge it (a layout the placer made, not one a user declared)
     * @param threadsOn         the node whose workers get the table's tasks: {@link #DATA_NODE} (the engine's rule:
     *                          the node of the part), a node, or {@link #ANY_NODE} (the operating system's choice,
     *                          modelled as a random node per task)
     */
    public record TableSpec(String name, List<Integer> nodes, boolean placerPartitioned, int threadsOn, long rows,
                            double rowBytes) {
        public static final int DATA_NODE = -1;
        public static final int ANY_NODE = -2;

        /**
         * @param rows     the table's own rows at scale 1 (0: the scenario's rows per table)
         * @param rowBytes memory per row, codes and dictionaries (0: the benchmark's ID and COL1..COL8 layout)
         */
        public TableSpec {
            nodes = List.copyOf(nodes);
            if (nodes.isEmpty()) {
                throw new IllegalArgumentException("table " + name + " needs a node for its part");
            }
            if (rows < 0 || !(rowBytes >= 0)) {
                throw new IllegalArgumentException("table " + name + ": rows and row bytes cannot be negative");
            }
        }

        public TableSpec(String name, List<Integer> nodes, boolean placerPartitioned, int threadsOn) {
            this(name, nodes, placerPartitioned, threadsOn, 0, 0);
        }

        public TableSpec(String name, List<Integer> nodes, boolean placerPartitioned) {
            this(name, nodes, placerPartitioned, DATA_NODE);
        }

        TableSpec withNodes(List<Integer> laid, boolean partitioned, int threads) {
            return new TableSpec(name, laid, partitioned, threads, rows, rowBytes);
        }

        TableSpec scaled(double rowFactor) {
            return rows == 0 ? this : new TableSpec(name, nodes, placerPartitioned, threadsOn,
                    Math.max(1, (long) (rows * rowFactor)), rowBytes);
        }
    }

    /**
     * A table group (adaptive-placement paper §4): tables partitioned alike whose parts of the same index are placed,
     * moved, split and merged together, so that joins on the partitioning key stay within a node.
     */
    public record GroupSpec(String name, List<String> tables) {
        public GroupSpec {
            tables = List.copyOf(tables);
            if (tables.size() < 2) {
                throw new IllegalArgumentException("group " + name + " needs at least two tables");
            }
        }
    }

    /**
     * A query template of a mix: steps run one after another, each a phase of tasks over every part of a table.
     *
     * @param weight how often clients draw it, relative to the mix's other templates
     */
    public record Template(String name, double weight, List<Step> steps) {
        public Template {
            steps = List.copyOf(steps);
            if (steps.isEmpty() || !(weight > 0)) {
                throw new IllegalArgumentException("template " + name + " needs steps and a positive weight");
            }
        }
    }

    /**
     * One step of a template. {@code scan}: the range predicates over {@code amount} bits of codes per row (task
     * class iv-scan); {@code materialize}, {@code aggregate}: that work for {@code amount} × the table's rows;
     * {@code probe}: {@code amount} × the table's rows probes into the table's join index or hash table, read where
     * its parts are; {@code merge}: the aggregation's merge of {@code amount} groups from every part.
     */
    public record Step(String kind, String table, double amount) {
        public static final List<String> KINDS = List.of("scan", "materialize", "aggregate", "probe", "merge");

        public Step {
            if (!KINDS.contains(kind)) {
                throw new IllegalArgumentException("a step is one of " + String.join(", ", KINDS) + ", not '" + kind
                        + "'");
            }
            if (!(amount > 0)) {
                throw new IllegalArgumentException("step " + kind + " " + table + " needs a positive amount");
            }
        }
    }

    /**
     * What one step kind other than {@code scan} costs per row it works on ({@code merge}: per group and part):
     * CPU nanoseconds at full speed and bytes read from the memory of the table's parts.
     */
    public record StepCost(String kind, double nanosPerRow, double bytesPerRow) {
        public static final List<String> KINDS = List.of("materialize", "aggregate", "probe", "merge");

        public StepCost {
            if (!KINDS.contains(kind)) {
                throw new IllegalArgumentException("a cost is set for one of " + String.join(", ", KINDS)
                        + ", not '" + kind + "'");
            }
            if (!(nanosPerRow > 0) || !(bytesPerRow >= 0)) {
                throw new IllegalArgumentException("cost " + kind + " needs positive nanoseconds and bytes that are"
                        + " not negative, got " + nanosPerRow + " and " + bytesPerRow);
            }
        }
    }

    /** The NUMA-effects paper's placement strategies (Kiefer et al., BTW 2013), for the {@code layout} sweep. */
    public static final List<String> LAYOUTS = List.of("aligned", "1-ahead", "interleave", "default");

    /**
     * {@code count} closed-loop clients per listed table issuing {@code query} ({@code a} range select,
     * {@code b} aggregation, {@code c} join of the table with the next listed one) between two seconds; or, for
     * {@link #MIX}, {@code count} clients in all, each query a template drawn from {@code templates} by weight.
     */
    public record ClientSpec(int count, char query, List<String> tables, double selectivity, double from,
                             double to, List<String> templates) {
        public static final char MIX = 'm';

        public ClientSpec {
            tables = List.copyOf(tables);
            templates = List.copyOf(templates);
        }

        public ClientSpec(int count, char query, List<String> tables, double selectivity, double from, double to) {
            this(count, query, tables, selectivity, from, to, List.of());
        }

        ClientSpec with(double newSelectivity, double newFrom, double newTo) {
            return new ClientSpec(count, query, tables, newSelectivity, newFrom, newTo, templates);
        }
    }

    /** One setting run with each of several values. */
    public record Sweep(String setting, List<String> values) {
        public Sweep {
            values = List.copyOf(values);
        }
    }

    public Scenario {
        tables = List.copyOf(tables);
        clients = List.copyOf(clients);
        sweeps = List.copyOf(sweeps);
        groups = List.copyOf(groups);
        templates = List.copyOf(templates);
        costs = List.copyOf(costs);
    }

    public Scenario(String name, String description, String machine, double seconds, long rows,
                    List<TableSpec> tables, List<ClientSpec> clients, double placerFrom, String stealing,
                    String cores, List<Sweep> sweeps, double windowSeconds) {
        this(name, description, machine, seconds, rows, tables, clients, placerFrom, stealing, cores, sweeps,
                windowSeconds, List.of(), List.of(), List.of());
    }

    /** Whether the scenario uses only the benchmark's own tables and query types (a, b, c), as the real driver runs. */
    public boolean isSeedBenchmark() {
        return groups.isEmpty() && templates.isEmpty() && costs.isEmpty()
                && tables.stream().allMatch(t -> t.rows() == 0 && t.rowBytes() == 0)
                && clients.stream().allMatch(c -> c.query() != ClientSpec.MIX);
    }

    /** The group a table belongs to, if any. */
    public GroupSpec groupOf(String table) {
        return groups.stream().filter(g -> g.tables().contains(table)).findFirst().orElse(null);
    }

    public Scenario withStealing(String policy) {
        return new Scenario(name, description, machine, seconds, rows, tables, clients, placerFrom, policy, cores, sweeps,
                windowSeconds, groups, templates, costs);
    }

    public Scenario withCores(String mode) {
        return new Scenario(name, description, machine, seconds, rows, tables, clients, placerFrom, stealing, mode,
                sweeps, windowSeconds, groups, templates, costs);
    }

    public Scenario withSelectivity(double selectivity) {
        List<ClientSpec> changed = clients.stream().map(c -> c.with(selectivity, c.from(), c.to())).toList();
        return new Scenario(name, description, machine, seconds, rows, tables, changed, placerFrom, stealing, cores, sweeps,
                windowSeconds, groups, templates, costs);
    }

    /**
     * The tables laid out by one of {@link #LAYOUTS}, table k being "instance" k of the paper, bound to node
     * k mod nodes: {@code aligned} its memory on that node, {@code 1-ahead} on the next node, {@code interleave}
     * one part on every node, {@code default} its memory where a first touch put it (a node drawn from the table's
     * name) and its tasks wherever the scheduler runs them.
     */
    public Scenario withLayout(String layout, int nodes) {
        List<TableSpec> laid = new ArrayList<>();
        for (int k = 0; k < tables.size(); k++) {
            TableSpec t = tables.get(k);
            int home = k % nodes;
            laid.add(switch (layout) {
                case "aligned" -> t.withNodes(List.of(home), false, home);
                case "1-ahead" -> t.withNodes(List.of((home + 1) % nodes), false, home);
                case "interleave" -> {
                    List<Integer> all = new ArrayList<>();
                    for (int n = 0; n < nodes; n++) {
                        all.add((home + n) % nodes);
                    }
                    yield t.withNodes(all, false, home);
                }
                case "default" -> t.withNodes(List.of(Math.floorMod(t.name().hashCode() * 31, nodes)), false,
                        TableSpec.ANY_NODE);
                default -> throw new IllegalArgumentException("unknown layout '" + layout + "' (expected "
                        + String.join(", ", LAYOUTS) + ")");
            });
        }
        return new Scenario(name, description, machine, seconds, rows, laid, clients, placerFrom, stealing, cores, sweeps,
                windowSeconds, groups, templates, costs);
    }

    public Scenario withPlacerFrom(double second) {
        return new Scenario(name, description, machine, seconds, rows, tables, clients, second, stealing, cores, sweeps,
                windowSeconds, groups, templates, costs);
    }

    /** Rows (the scenario's and each table's own) and seconds scaled, clients as they are otherwise. */
    public Scenario scaled(double rowFactor, double timeFactor) {
        List<ClientSpec> changed = clients.stream().map(c -> c.with(c.selectivity(), c.from() * timeFactor,
                c.to() * timeFactor)).toList();
        List<TableSpec> resized = tables.stream().map(t -> t.scaled(rowFactor)).toList();
        return new Scenario(name, description, machine, seconds * timeFactor, Math.max(1, (long) (rows * rowFactor)),
                resized, changed, placerFrom < 0 ? placerFrom : placerFrom * timeFactor, stealing, cores, sweeps,
                windowSeconds * timeFactor, groups, templates, costs);
    }
}
