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
import java.util.TreeSet;
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

    /** The tables of every server, by name. */
    List<String> tables() {
        TreeSet<String> names = new TreeSet<>();
        for (String server : servers.servers()) {
            read(server, "SELECT table_name FROM locus_tables", rs -> names.add(rs.getString(1)));
        }
        return List.copyOf(names);
    }

    /** The servers that hold {@code table}, each with its parts. */
    List<Part> parts(String table) {
        List<Part> parts = new ArrayList<>();
        for (Holding h : holdings(table)) {
            parts.addAll(h.parts());
        }
        return parts;
    }

    /** What each server of the catalog (in the catalog's order) holds of {@code table}; servers without it left out. */
    List<Holding> holdings(String table) {
        List<Holding> holdings = new ArrayList<>();
        for (String server : servers.servers()) {
            int[] count = {-1};
            long[] division = {-1};
            String[] group = {null};
            String[] partitioning = {null};
            read(server, "SELECT parts, division, table_group, partitioning FROM locus_tables WHERE table_name = "
                    + literal(table), rs -> {
                count[0] = rs.getInt(1);
                division[0] = rs.getLong(2);
                group[0] = rs.getString(3);
                partitioning[0] = rs.getString(4);
            });
            if (count[0] < 0) {
                continue;
            }
            Map<Integer, Part> found = new LinkedHashMap<>();
            read(server, "SELECT part, row_count, node, key_min, key_max, key_nulls FROM locus_parts"
                    + " WHERE table_name = " + literal(table) + " ORDER BY part", rs -> found.put(rs.getInt(1),
                    new Part(server, rs.getInt(1), count[0], division[0], rs.getLong(2), rs.getInt(3),
                            (Long) rs.getObject(4), (Long) rs.getObject(5), (Long) rs.getObject(6))));
            List<Part> parts = new ArrayList<>();
            boolean complete = true;
            for (int p = 0; p < count[0]; p++) {
                // A part listed in another division than the count (a repartition between the two reads) is still
                // one split: its read is refused if the division no longer holds. Its keys are unknown.
                Part part = found.get(p);
                complete &= part != null;
                parts.add(part != null ? part : new Part(server, p, count[0], division[0], 0, -1, null, null, null));
            }
            // Bounds of a division that changed between the two reads do not describe it: reported as unknown.
            holdings.add(new Holding(server, group[0], complete && found.size() == count[0] ? partitioning[0] : null,
                    parts));
        }
        return holdings;
    }

    /** The catalog's servers in the order its properties name them. */
    List<String> serverOrder() {
        return servers.servers();
    }

    /** The tables of table group {@code group} on any server of the catalog. */
    List<String> groupMembers(String group) {
        TreeSet<String> names = new TreeSet<>();
        for (String server : servers.servers()) {
            read(server, "SELECT table_name FROM locus_tables WHERE table_group = " + literal(group),
                    rs -> names.add(rs.getString(1)));
        }
        return List.copyOf(names);
    }

    /**
     * The column {@code table} is partitioned by on {@code server} (HASH or RANGE), or null when it has none there:
     * then rows with one value of it are in one part.
     */
    String partitionKey(String server, String table) {
        String[] spec = {null};
        read(server, "SELECT partitioning FROM locus_tables WHERE table_name = " + literal(table),
                rs -> spec[0] = rs.getString(1));
        if (spec[0] == null) {
            return null;
        }
        Matcher m = KEYED.matcher(spec[0]);
        return m.matches() ? m.group(1).toLowerCase(Locale.ROOT) : null;
    }

    private static final Pattern KEYED = Pattern.compile("(?:HASH|RANGE)\\((\\w+)\\).*");

    /** The columns of {@code table}, or null when no server holds it. */
    List<LocusColumnHandle> columns(String table) {
        List<LocusColumnHandle> agreed = null;
        String first = null;
        for (String server : servers.servers()) {
            if (!holds(server, table)) {
                continue;
            }
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

    private boolean holds(String server, String table) {
        boolean[] found = {false};
        read(server, "SELECT 1 FROM locus_tables WHERE table_name = " + literal(table), rs -> found[0] = true);
        return found[0];
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

    private static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }
}
