package io.locusdb.bench.sim;

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
 * @param sweeps       runs to repeat with one setting changed ({@code selectivity} or {@code stealing}), empty for
 *                     one run
 * @param windowSeconds the window of the throughput slope in timelines (the paper's 30 s)
 */
public record Scenario(String name, String description, String machine, double seconds, long rows,
                       List<TableSpec> tables, List<ClientSpec> clients, double placerFrom, String stealing,
                       List<Sweep> sweeps, double windowSeconds) {

    /**
     * A table and where its parts start.
     *
     * @param nodes            the node of each part (one entry: one part)
     * @param placerPartitioned whether the placer may merge it (a layout the placer made, not one a user declared)
     */
    public record TableSpec(String name, List<Integer> nodes, boolean placerPartitioned) {
        public TableSpec {
            nodes = List.copyOf(nodes);
            if (nodes.isEmpty()) {
                throw new IllegalArgumentException("table " + name + " needs a node for its part");
            }
        }
    }

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
        return new Scenario(name, description, machine, seconds, rows, tables, clients, placerFrom, policy, sweeps,
                windowSeconds);
    }

    public Scenario withSelectivity(double selectivity) {
        List<ClientSpec> changed = clients.stream().map(c -> new ClientSpec(c.count(), c.query(), c.tables(),
                selectivity, c.from(), c.to())).toList();
        return new Scenario(name, description, machine, seconds, rows, tables, changed, placerFrom, stealing, sweeps,
                windowSeconds);
    }

    public Scenario withPlacerFrom(double second) {
        return new Scenario(name, description, machine, seconds, rows, tables, clients, second, stealing, sweeps,
                windowSeconds);
    }

    /** Rows and seconds scaled by {@code factor}, clients and times as they are otherwise. */
    public Scenario scaled(double rowFactor, double timeFactor) {
        List<ClientSpec> changed = clients.stream().map(c -> new ClientSpec(c.count(), c.query(), c.tables(),
                c.selectivity(), c.from() * timeFactor, c.to() * timeFactor)).toList();
        return new Scenario(name, description, machine, seconds * timeFactor, Math.max(1, (long) (rows * rowFactor)),
                tables, changed, placerFrom < 0 ? placerFrom : placerFrom * timeFactor, stealing, sweeps,
                windowSeconds * timeFactor);
    }
}
