package io.locusdb.bench.seed;

import io.locusdb.bench.sim.Scenario;
import io.locusdb.bench.sim.SimEvent;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;

/**
 * The benchmark against a running server over JDBC: tables created and filled with multi-row {@code INSERT}s and
 * placed with the operator's statements, clients on their own connections with prepared statements, the nodes'
 * utilization from {@code locus_nodes} and the placer's changes from {@code locus_placer_events}. The server's placer
 * runs as its configuration says: no statement switches it on at a scenario's second.
 */
public final class ServerTarget implements SeedTarget {
    private static final int ROWS_PER_INSERT = 1000;

    private final String url;
    private final Properties credentials;
    private final Connection admin;
    private final int nodes;
    private final int cpus;

    public ServerTarget(String url, Properties credentials) throws SQLException {
        this.url = url;
        this.credentials = credentials;
        this.admin = DriverManager.getConnection(url, credentials);
        int n = 0;
        int c = 0;
        try (Statement s = admin.createStatement(); ResultSet r = s.executeQuery("SELECT cpus FROM locus_nodes")) {
            while (r.next()) {
                n++;
                c += r.getInt(1);
            }
        }
        if (n == 0) {
            throw new SQLException("the server at " + url + " lists no nodes in locus_nodes");
        }
        this.nodes = n;
        this.cpus = c;
    }

    @Override
    public int nodes() {
        return nodes;
    }

    @Override
    public int cpus() {
        return cpus;
    }

    @Override
    public String describe() {
        return "server at " + url + " (" + nodes + " nodes)";
    }

    @Override
    public void load(Scenario scenario, long rows, long seed) throws SQLException {
        try (Statement s = admin.createStatement()) {
            for (Scenario.TableSpec spec : scenario.tables()) {
                s.execute("DROP TABLE IF EXISTS " + spec.name());
                s.execute(SeedTables.createTable(spec.name()));
                SplittableRandom random = SeedTables.random(spec.name(), seed);
                for (long from = 0; from < rows; from += ROWS_PER_INSERT) {
                    s.execute(insert(spec.name(), SeedTables.rows(from, Math.min(rows, from + ROWS_PER_INSERT),
                            random)));
                }
                for (String statement : SeedTables.placement(spec, nodes)) {
                    s.execute(statement);
                }
            }
        }
    }

    private static String insert(String table, List<Object[]> rows) {
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" VALUES ");
        for (int i = 0; i < rows.size(); i++) {
            Object[] row = rows.get(i);
            sql.append(i == 0 ? "(" : ", (");
            for (int c = 0; c < row.length; c++) {
                sql.append(c == 0 ? "" : ", ").append(row[c]);
            }
            sql.append(')');
        }
        return sql.toString();
    }

    @Override
    public Client connect() throws SQLException {
        Connection connection = DriverManager.getConnection(url, credentials);
        Map<String, PreparedStatement> prepared = new HashMap<>();
        return new Client() {
            @Override
            public void run(char type, String table, String joined, int column, long low, long high)
                    throws SQLException {
                String sql = SeedQuery.sql(type, table, joined, column);
                PreparedStatement q = prepared.get(sql);
                if (q == null) {
                    q = connection.prepareStatement(sql);
                    prepared.put(sql, q);
                }
                q.setLong(1, low);
                q.setLong(2, high);
                try (ResultSet r = q.executeQuery()) {
                    while (r.next()) {
                        // Read to the end, so that the whole result is computed and sent.
                    }
                }
            }

            @Override
            public void close() throws SQLException {
                connection.close();
            }
        };
    }

    @Override
    public boolean enablePlacer() {
        return false;
    }

    @Override
    public NodeSample sample() throws SQLException {
        double[] threads = new double[nodes];
        double[] memory = new double[nodes];
        try (Statement s = admin.createStatement(); ResultSet r = s.executeQuery(
                "SELECT node, recent_threads, recent_memory_bytes_per_s FROM locus_nodes")) {
            while (r.next()) {
                int node = r.getInt(1);
                if (node >= 0 && node < nodes) {
                    threads[node] = r.getDouble(2);
                    memory[node] = r.getDouble(3);
                }
            }
        }
        return new NodeSample(threads, memory);
    }

    @Override
    public List<SimEvent> events(long sinceEpochMillis) throws SQLException {
        List<SimEvent> events = new ArrayList<>();
        try (PreparedStatement s = admin.prepareStatement("SELECT epoch_ms, millis, action, owner, parts_before,"
                + " parts_after, from_node, to_node, reason FROM locus_placer_events WHERE source = 'placer'"
                + " AND error IS NULL AND epoch_ms >= ? ORDER BY seq")) {
            s.setLong(1, sinceEpochMillis);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    double doneAt = (r.getLong(1) - sinceEpochMillis) / 1000.0;
                    double startedAt = doneAt - r.getDouble(2) / 1000;
                    events.add(new SimEvent(startedAt, startedAt, doneAt, r.getString(3), r.getString(4),
                            r.getInt(5), r.getInt(6), r.getInt(7), r.getInt(8), r.getString(9)));
                }
            }
        }
        return events;
    }

    @Override
    public double stolenShare() {
        return Double.NaN;
    }

    @Override
    public Map<String, Double> classThroughput() {
        return Map.of();
    }

    @Override
    public void close() throws SQLException {
        admin.close();
    }
}
