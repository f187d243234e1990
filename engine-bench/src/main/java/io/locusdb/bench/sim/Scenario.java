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
 */
public record Scenario(String name, String description, String machine, double seconds, long rows,
                       List<TableSpec> tables, List<ClientSpec> clients, double placerFrom, String stealing,
                       String cores, List<Sweep> sweeps, double windowSeconds) {

    /**
     * A table and where its parts start.
     *
     * @param nodes             the node of each part (one entry: one part)
     * @param placerPartitioned whether the placer may merge it (a layout the placer made, not one a user declared)
     * @param threadsOn         the node whose workers get the table's tasks: {@link #DATA_NODE} (the engine's rule:
     *                          the node of the part), a node, or {@link #ANY_NODE} (the operating system's choice,
     *                          modelled as a random node per task)
     */
    public record TableSpec(String name, List<Integer> nodes, boolean placerPartitioned, int threadsOn) {
        public static final int DATA_NODE = -1;
        public static final int ANY_NODE = -2;

        public TableSpec {
            nodes = List.copyOf(nodes);
            if (nodes.isEmpty()) {
                throw new IllegalArgumentException("table " + name + " needs a node for its part");
            }
        }

        public TableSpec(String name, List<Integer> nodes, boolean placerPartitioned) {
            this(name, nodes, placerPartitioned, DATA_NODE);
        }
    }

    /** The NUMA-effects paper's placement strategies (Kiefer et al., BTW 2013), for the {@code layout} sweep. */
    public static final List<String> LAYOUTS = List.of("aligned", "1-ahead", "interleave", "default");

    /**
     * {@code count} closed-loop clients per listed table issuing {@code query} ({@code a} range select,
     * {@code b} aggregation, {@code c} join of the table with the next listed one) between two seconds.
     */
    public record ClientSpec(int count, char query, List<String> tables, double selectivity, double from,
                             double to) {
        public ClientSpec {
            tables = List.copyOf(tables);
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
    }

    public Scenario withStealing(String policy) {
        return new Scenario(name, description, machine, seconds, rows, tables, clients, placerFrom, policy, cores, sweeps,
                windowSeconds);
    }

    public Scenario withCores(String mode) {
        return new Scenario(name, description, machine, seconds, rows, tables, clients, placerFrom, stealing, mode,
                sweeps, windowSeconds);
    }

    public Scenario withSelectivity(double selectivity) {
        List<ClientSpec> changed = clients.stream().map(c -> new ClientSpec(c.count(), c.query(), c.tables(),
                selectivity, c.from(), c.to())).toList();
        return new Scenario(name, description, machine, seconds, rows, tables, changed, placerFrom, stealing, cores, sweeps,
                windowSeconds);
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
                case "aligned" -> new TableSpec(t.name(), List.of(home), false, home);
                case "1-ahead" -> new TableSpec(t.name(), List.of((home + 1) % nodes), false, home);
                case "interleave" -> {
                    List<Integer> all = new ArrayList<>();
                    for (int n = 0; n < nodes; n++) {
                        all.add((home + n) % nodes);
                    }
                    yield new TableSpec(t.name(), all, false, home);
                }
                case "default" -> new TableSpec(t.name(), List.of(Math.floorMod(t.name().hashCode() * 31, nodes)),
                        false, TableSpec.ANY_NODE);
                default -> throw new IllegalArgumentException("unknown layout '" + layout + "' (expected "
                        + String.join(", ", LAYOUTS) + ")");
            });
        }
        return new Scenario(name, description, machine, seconds, rows, laid, clients, placerFrom, stealing, cores, sweeps,
                windowSeconds);
    }

    public Scenario withPlacerFrom(double second) {
        return new Scenario(name, description, machine, seconds, rows, tables, clients, second, stealing, cores, sweeps,
                windowSeconds);
    }

    /** Rows and seconds scaled by {@code factor}, clients and times as they are otherwise. */
    public Scenario scaled(double rowFactor, double timeFactor) {
        List<ClientSpec> changed = clients.stream().map(c -> new ClientSpec(c.count(), c.query(), c.tables(),
                c.selectivity(), c.from() * timeFactor, c.to() * timeFactor)).toList();
        return new Scenario(name, description, machine, seconds * timeFactor, Math.max(1, (long) (rows * rowFactor)),
                tables, changed, placerFrom < 0 ? placerFrom : placerFrom * timeFactor, stealing, cores, sweeps,
                windowSeconds * timeFactor);
    }
}
