package io.locusdb.server.pg;

import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.type.ColumnType;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code COPY t FROM STDIN}: CopyData messages cut into records (a record may span messages, a CSV field may hold
 * line breaks), each field read as its column's type, and the rows inserted in chunks of {@link #CHUNK_ROWS}, each
 * chunk one commit. A bad record fails the COPY with its line number; chunks already inserted stay (LocusDB commits
 * each statement, and COPY's chunks are statements).
 */
public final class PgCopyIn {
    static final int CHUNK_ROWS = 1000;

    private final PgCopy copy;
    private final Session engine;
    private final String table;
    private final List<String> columnNames;
    private final ColumnType[] types;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private final List<Object[]> rows = new ArrayList<>();
    private List<PgSqlText.Piece> rest = List.of();
    private PreparedQuery fullChunk;
    private long line;
    private long inserted;
    private boolean headerSkipped;
    private boolean ended;

    public PgCopyIn(PgCopy copy, Session engine, Catalog catalog) {
        this.copy = copy;
        this.engine = engine;
        Table t = catalog.find(copy.table()).orElseThrow(() -> new PgDataException("42P01", "relation \""
                + copy.table() + "\" does not exist"));
        this.table = t.name();
        List<ColumnDef> all = t.schema().columns();
        if (copy.columns().isEmpty()) {
            columnNames = all.stream().map(ColumnDef::name).toList();
        } else {
            columnNames = copy.columns();
        }
        types = new ColumnType[columnNames.size()];
        for (int i = 0; i < types.length; i++) {
            String name = columnNames.get(i);
            types[i] = all.stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst()
                    .orElseThrow(() -> new PgDataException("42703", "column \"" + name + "\" of relation \""
                            + copy.table() + "\" does not exist")).type();
        }
    }

    public int columnCount() {
        return types.length;
    }

    /** The statements after the COPY in the same simple query, run once the COPY ends. */
    public void rest(List<PgSqlText.Piece> statements) {
        rest = List.copyOf(statements);
    }

    public List<PgSqlText.Piece> rest() {
        return rest;
    }

    public void data(byte[] data) {
        if (ended) {
            return;
        }
        pending.writeBytes(data);
        byte[] bytes = pending.toByteArray();
        int consumed = records(bytes, false);
        pending.reset();
        pending.write(bytes, consumed, bytes.length - consumed);
        if (rows.size() >= CHUNK_ROWS) {
            insertChunk();
        }
    }

    /** CopyDone: the last record (which may lack its line break) and the last chunk; returns the rows copied. */
    public long finish() {
        byte[] bytes = pending.toByteArray();
        pending.reset();
        if (!ended) {
            records(bytes, true);
        }
        while (!rows.isEmpty()) {
            insertChunk();
        }
        return inserted;
    }

    public void abandon() {
        rows.clear();
        pending.reset();
    }

    /** Reads complete records from {@code bytes}; returns how many bytes they took. */
    private int records(byte[] bytes, boolean last) {
        int start = 0;
        while (start < bytes.length && !ended) {
            int end = recordEnd(bytes, start);
            if (end < 0) {
                if (!last) {
                    return start;
                }
                end = bytes.length;
            }
            String record = new String(bytes, start, end - start, StandardCharsets.UTF_8);
            if (record.endsWith("\r")) {
                record = record.substring(0, record.length() - 1);
            }
            start = Math.min(bytes.length, end + 1);
            line++;
            if (record.equals("\\.")) {
                ended = true;
                break;
            }
            if (copy.header() && !headerSkipped) {
                headerSkipped = true;
                continue;
            }
            if (record.isEmpty() && last && start >= bytes.length && types.length != 1) {
                continue;
            }
            rows.add(values(copy.csv() ? csvFields(record) : textFields(record)));
            if (rows.size() >= CHUNK_ROWS) {
                insertChunk();
            }
        }
        return start;
    }

    /** The index of the '\n' ending the record at {@code start} (outside CSV quotes), or -1. */
    private int recordEnd(byte[] bytes, int start) {
        boolean quoted = false;
        for (int i = start; i < bytes.length; i++) {
            byte b = bytes[i];
            if (copy.csv()) {
                if (quoted && b == copy.escape() && copy.escape() != copy.quote() && i + 1 < bytes.length) {
                    i++;
                } else if (b == copy.quote()) {
                    quoted = !quoted;
                } else if (b == '\n' && !quoted) {
                    return i;
                }
            } else if (b == '\\' && i + 1 < bytes.length) {
                i++;
            } else if (b == '\n') {
                return i;
            }
        }
        return -1;
    }

    private List<String> textFields(String record) {
        List<String> fields = new ArrayList<>(types.length);
        StringBuilder f = new StringBuilder();
        boolean raw = true;
        int startOfField = 0;
        for (int i = 0; i <= record.length(); i++) {
            if (i == record.length() || record.charAt(i) == copy.delimiter()) {
                String rawText = record.substring(startOfField, i);
                fields.add(rawText.equals(copy.nullText()) ? null : f.toString());
                f.setLength(0);
                startOfField = i + 1;
                continue;
            }
            char c = record.charAt(i);
            if (c == '\\' && i + 1 < record.length()) {
                char e = record.charAt(++i);
                switch (e) {
                    case 'n' -> f.append('\n');
                    case 't' -> f.append('\t');
                    case 'r' -> f.append('\r');
                    case 'b' -> f.append('\b');
                    case 'f' -> f.append('\f');
                    case 'v' -> f.append('\u000B');
                    case 'x' -> {
                        int j = i + 1;
                        while (j < record.length() && j < i + 3 && Character.digit(record.charAt(j), 16) >= 0) {
                            j++;
                        }
                        if (j == i + 1) {
                            f.append('x');
                        } else {
                            f.append((char) Integer.parseInt(record.substring(i + 1, j), 16));
                            i = j - 1;
                        }
                    }
                    default -> {
                        if (e >= '0' && e <= '7') {
                            int j = i;
                            while (j < record.length() && j < i + 3 && record.charAt(j) >= '0'
                                    && record.charAt(j) <= '7') {
                                j++;
                            }
                            f.append((char) Integer.parseInt(record.substring(i, j), 8));
                            i = j - 1;
                        } else {
                            f.append(e);
                        }
                    }
                }
            } else {
                f.append(c);
            }
        }
        return fields;
    }

    private List<String> csvFields(String record) {
        List<String> fields = new ArrayList<>(types.length);
        StringBuilder f = new StringBuilder();
        boolean quoted = false;
        boolean wasQuoted = false;
        for (int i = 0; i <= record.length(); i++) {
            if (i == record.length() || (!quoted && record.charAt(i) == copy.delimiter())) {
                if (quoted) {
                    throw bad("unterminated CSV quoted field");
                }
                String value = f.toString();
                fields.add(!wasQuoted && value.equals(copy.nullText()) ? null : value);
                f.setLength(0);
                wasQuoted = false;
                continue;
            }
            char c = record.charAt(i);
            if (quoted) {
                if (c == copy.escape() && i + 1 < record.length() && (record.charAt(i + 1) == copy.quote()
                        || record.charAt(i + 1) == copy.escape()) && (copy.escape() != copy.quote()
                        || record.charAt(i + 1) == copy.quote())) {
                    f.append(record.charAt(++i));
                } else if (c == copy.quote()) {
                    quoted = false;
                } else {
                    f.append(c);
                }
            } else if (c == copy.quote()) {
                quoted = true;
                wasQuoted = true;
            } else {
                f.append(c);
            }
        }
        return fields;
    }

    private Object[] values(List<String> fields) {
        if (fields.size() != types.length) {
            throw bad(fields.size() < types.length ? "missing data for column \"" + columnNames.get(fields.size())
                    + "\"" : "extra data after last expected column");
        }
        Object[] row = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            String v = fields.get(i);
            if (v == null) {
                continue;
            }
            try {
                row[i] = PgType.decodeParameter(v.getBytes(StandardCharsets.UTF_8), false, null, types[i], i + 1);
            } catch (PgDataException e) {
                throw bad("invalid input for column \"" + columnNames.get(i) + "\" (" + types[i].toString()
                        .toLowerCase(Locale.ROOT) + "): \"" + v + "\"");
            }
        }
        return row;
    }

    private PgDataException bad(String message) {
        return new PgDataException("22P04", message + " (COPY " + table + ", line " + line + ")");
    }

    private void insertChunk() {
        int n = Math.min(rows.size(), CHUNK_ROWS);
        PreparedQuery insert;
        if (n == CHUNK_ROWS) {
            if (fullChunk == null) {
                fullChunk = engine.prepare(insertSql(CHUNK_ROWS));
            }
            insert = fullChunk;
        } else {
            insert = engine.prepare(insertSql(n));
        }
        insert.clearParameters();
        int p = 1;
        for (int r = 0; r < n; r++) {
            for (Object value : rows.get(r)) {
                insert.set(p++, value);
            }
        }
        insert.execute().close();
        rows.subList(0, n).clear();
        inserted += n;
    }

    private String insertSql(int count) {
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(PgCopyOut.quoted(table)).append(" (");
        for (int i = 0; i < columnNames.size(); i++) {
            sql.append(i > 0 ? ", " : "").append(PgCopyOut.quoted(columnNames.get(i)));
        }
        sql.append(") VALUES ");
        String row = "(" + "?, ".repeat(types.length - 1) + "?)";
        for (int r = 0; r < count; r++) {
            sql.append(r > 0 ? ", " : "").append(row);
        }
        return sql.toString();
    }
}
