package io.locusdb.trino;

import io.trino.spi.TrinoException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the catalog's servers hold, read from their system tables: the tables (the union over servers: a table on
 * several servers with different parts is one table), their columns (which must agree between servers), and each
 * server's parts of a table with their rows and NUMA nodes.
 */
final class LocusCatalog {
    private final LocusServers servers;

    LocusCatalog(LocusServers servers) {
        this.servers = servers;
    }

    /**
     * One part of a table on one server, in its table's division {@code division} (see {@code locus_tables}), with
     * the bounds and NULL count of an integer partitioning key (null without one; the bounds also when the part
     * holds no key).
     */
    record Part(String server, int part, int parts, long division, long rows, int node, Long keyMin, Long keyMax,
                Long keyNulls) {
    }

    /**
     * What one server holds of a table: its table group (or null), its partitioning as {@code locus_tables} writes
     * it ({@code HASH(k) PARTITIONS n}, {@code RANGE(k) PARTITIONS n}, {@code ROUND_ROBIN(n)}, {@code NONE}) and
     * its parts in order.
     */
    record Holding(String server, String group, String partitioning, List<Part> parts) {
    }

    /** Queries whose look at the servers is kept: Trino asks about one query's tables many times. */
    private static final int QUERIES_KEPT = 64;
    private final Map<String, State> states = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, State> eldest) {
            return size() > QUERIES_KEPT;
        }
    };

    /**
     * What the servers held when query {@code queryId} first asked: two reads of each server's system tables
     * ({@code locus_tables} and {@code locus_parts}, all tables at once), so that one query's planning and splits
     * see one picture at the cost of two round trips per server, whatever the number of tables and calls.
     */
    State state(String queryId) {
        synchronized (states) {
            State known = states.get(queryId);
            if (known != null) {
                return known;
            }
        }
        State state = new State();
        synchronized (states) {
            State raced = states.putIfAbsent(queryId, state);
            return raced != null ? raced : state;
        }
    }

    /** One look at every server (see {@link #state}); column lists are read when first asked for. */
    final class State {
        private final Map<String, List<Holding>> holdings = new TreeMap<>();
        private final Map<String, List<LocusColumnHandle>> columns = new ConcurrentHashMap<>();

        private State() {
            for (String server : servers.servers()) {
                record TableRow(int parts, long division, String group, String partitioning) {
                }
                Map<String, TableRow> tables = new TreeMap<>();
                read(server, "SELECT table_name, parts, division, table_group, partitioning FROM locus_tables",
                        rs -> tables.put(rs.getString(1), new TableRow(rs.getInt(2), rs.getLong(3), rs.getString(4),
                                rs.getString(5))));
                Map<String, Map<Integer, Part>> found = new TreeMap<>();
                read(server, "SELECT table_name, part, row_count, node, key_min, key_max, key_nulls FROM locus_parts",
                        rs -> {
                            TableRow t = tables.get(rs.getString(1));
                            if (t != null) {
                                found.computeIfAbsent(rs.getString(1), k -> new TreeMap<>()).put(rs.getInt(2),
                                        new Part(server, rs.getInt(2), t.parts(), t.division(), rs.getLong(3),
                                                rs.getInt(4), (Long) rs.getObject(5), (Long) rs.getObject(6),
                                                (Long) rs.getObject(7)));
                            }
                        });
                tables.forEach((table, t) -> {
                    Map<Integer, Part> listed = found.getOrDefault(table, Map.of());
                    List<Part> parts = new ArrayList<>();
                    for (int p = 0; p < t.parts(); p++) {
                        // A part listed in another division than the count (a repartition between the two reads) is
                        // still one split: its read is refused if the division no longer holds. Its keys are unknown.
                        Part part = listed.get(p);
                        parts.add(part != null ? part : new Part(server, p, t.parts(), t.division(), 0, -1, null, null,
                                null));
                    }
                    // Bounds read in another division than the count do not describe it: partitioning unknown.
                    boolean complete = listed.size() == t.parts() && listed.keySet().stream().allMatch(p -> p < t.parts());
                    holdings.computeIfAbsent(table, k -> new ArrayList<>()).add(new Holding(server, t.group(),
                            complete ? t.partitioning() : null, List.copyOf(parts)));
                });
            }
        }

        /** The tables of every server, by name. */
        List<String> tables() {
            return List.copyOf(holdings.keySet());
        }

        /** What each server of the catalog (in the catalog's order) holds of {@code table}; others left out. */
        List<Holding> holdings(String table) {
            return holdings.getOrDefault(table, List.of());
        }

        /** The servers that hold {@code table}, each with its parts. */
        List<Part> parts(String table) {
            List<Part> parts = new ArrayList<>();
            for (Holding h : holdings(table)) {
                parts.addAll(h.parts());
            }
            return parts;
        }

        /** The tables of table group {@code group} on any server of the catalog. */
        List<String> groupMembers(String group) {
            List<String> members = new ArrayList<>();
            holdings.forEach((table, held) -> {
                if (held.stream().anyMatch(h -> group.equals(h.group()))) {
                    members.add(table);
                }
            });
            return members;
        }

        /**
         * The column {@code table} is partitioned by on {@code server} (HASH or RANGE), or null when it has none
         * there: then rows with one value of it are in one part.
         */
        String partitionKey(String server, String table) {
            for (Holding h : holdings(table)) {
                if (h.server().equals(server) && h.partitioning() != null) {
                    Matcher m = KEYED.matcher(h.partitioning());
                    return m.matches() ? m.group(1).toLowerCase(Locale.ROOT) : null;
                }
            }
            return null;
        }

        /** The columns of {@code table}, or null when no server holds it. */
        List<LocusColumnHandle> columns(String table) {
            if (!holdings.containsKey(table)) {
                return null;
            }
            return columns.computeIfAbsent(table, t -> readColumns(t, holdings(t).stream().map(Holding::server)
                    .toList()));
        }
    }

    /** The catalog's servers in the order its properties name them. */
    List<String> serverOrder() {
        return servers.servers();
    }

    private static final Pattern KEYED = Pattern.compile("(?:HASH|RANGE)\\((\\w+)\\).*");

    /** The columns of {@code table}, agreed by every server of {@code holders}. */
    private List<LocusColumnHandle> readColumns(String table, List<String> holders) {
        List<LocusColumnHandle> agreed = null;
        String first = null;
        for (String server : holders) {
            List<LocusColumnHandle> columns = new ArrayList<>();
            Connection c = servers.open(server);
            boolean healthy = false;
            try (PreparedStatement s = c.prepareStatement("SELECT * FROM " + PredicateSql.quote(table))) {
                ResultSetMetaData meta = s.getMetaData();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    columns.add(new LocusColumnHandle(meta.getColumnName(i).toLowerCase(Locale.ROOT),
                            LocusTypes.of(meta, i, table, server), meta.isNullable(i) != ResultSetMetaData.columnNoNulls));
                }
                healthy = true;
            } catch (SQLException e) {
                throw servers.failure(server, e);
            } finally {
                servers.release(server, c, healthy);
            }
            if (agreed == null) {
                agreed = columns;
                first = server;
            } else if (!sameColumns(agreed, columns)) {
                throw new TrinoException(LocusServers.Error.LOCUSDB_CATALOG_MISMATCH, "table " + table + " has"
                        + " columns " + describe(agreed) + " on LocusDB server " + first + " but " + describe(columns)
                        + " on " + server + ": one table of the catalog needs the same columns on every server");
            }
        }
        return agreed;
    }

    private static boolean sameColumns(List<LocusColumnHandle> a, List<LocusColumnHandle> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).name().equals(b.get(i).name()) || !a.get(i).type().equals(b.get(i).type())) {
                return false;
            }
        }
        return true;
    }

    private static String describe(List<LocusColumnHandle> columns) {
        return columns.stream().map(c -> c.name() + " " + c.type().getDisplayName()).toList().toString();
    }

    private interface RowReader {
        void read(ResultSet rs) throws SQLException;
    }

    private void read(String server, String sql, RowReader reader) {
        Connection c = servers.open(server);
        boolean healthy = false;
        try (PreparedStatement s = c.prepareStatement(sql); ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                reader.read(rs);
            }
            healthy = true;
        } catch (SQLException e) {
            throw servers.failure(server, e);
        } finally {
            servers.release(server, c, healthy);
        }
    }
}
