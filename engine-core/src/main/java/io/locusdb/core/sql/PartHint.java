package io.locusdb.core.sql;

import io.locusdb.core.exec.PartSelection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A query's leading hint comment naming single table parts to read, the way a distributed engine reads one split:
 * {@code /*+ PART(lineitem 3 OF 8 AT 2) PART(orders 3 OF 8) *}{@code / SELECT ...} reads only part 3 of each of
 * those tables, which must still have 8 parts (and lineitem still division 2 of its rows, as {@code locus_tables}
 * lists it; else 40001: the caller lists the parts again). Hint comments in the
 * {@code /*+ ... *}{@code /} form of pg_hint_plan and Oracle that hold no PART are left alone as comments; one that
 * holds PART but does not read as above is a syntax error, so a mistyped hint never reads the whole table.
 */
public final class PartHint {
    private static final Pattern OPEN = Pattern.compile("\\A\\s*/\\*\\+");
    private static final Pattern ONE = Pattern.compile(
            "\\s*PART\\s*\\(\\s*(\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)\\s+(\\d{1,9})\\s+OF\\s+(\\d{1,9})"
                    + "(?:\\s+AT\\s+(\\d{1,18}))?\\s*\\)\\s*",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern MENTION = Pattern.compile("\\bPART\\s*\\(", Pattern.CASE_INSENSITIVE);

    private final String statement;
    private final List<PartSelection> parts;

    private PartHint(String statement, List<PartSelection> parts) {
        this.statement = statement;
        this.parts = parts;
    }

    /**
     * The statement's leading hint comment, or null when it has none; one without PART selects no parts and only
     * comes out of the statement.
     */
    public static PartHint read(String sql) {
        Matcher open = OPEN.matcher(sql);
        if (!open.find()) {
            return null;
        }
        int start = open.end();
        int end = sql.indexOf("*/", start);
        if (end < 0) {
            return null;
        }
        String body = sql.substring(start, end);
        List<PartSelection> parts = new ArrayList<>();
        if (!MENTION.matcher(body).find()) {
            // Another system's hint: a comment to PostgreSQL, and so here (Calcite would read it as its own hint).
            return new PartHint(blank(sql, open.start(), end + 2), List.of());
        }
        Matcher one = ONE.matcher(body);
        int at = 0;
        while (at < body.length() && one.find(at) && one.start() == at) {
            String table = one.group(1);
            table = table.startsWith("\"") ? table.substring(1, table.length() - 1).replace("\"\"", "\"")
                    : table.toLowerCase(Locale.ROOT);
            int part = Integer.parseInt(one.group(2));
            int of = Integer.parseInt(one.group(3));
            if (of < 1 || part >= of) {
                throw error(sql, start + one.start(2), "PART(" + table + " " + part + " OF " + of
                        + "): parts are numbered from 0 to " + (of - 1));
            }
            for (PartSelection p : parts) {
                if (p.table().equals(table.toLowerCase(Locale.ROOT))) {
                    throw error(sql, start + one.start(1), "the hint names table " + table + " twice");
                }
            }
            long division = one.group(4) == null ? -1 : Long.parseLong(one.group(4));
            parts.add(new PartSelection(table, part, of, division));
            at = one.end();
        }
        if (at < body.length() && !body.substring(at).isBlank()) {
            throw error(sql, start + at, "a PART hint reads PART(table part OF parts [AT division]), e.g."
                    + " /*+ PART(lineitem 3 OF 8 AT 2) */, and nothing else");
        }
        return new PartHint(blank(sql, open.start(), end + 2), List.copyOf(parts));
    }

    /** Blanks in place of the comment keep the positions of errors in the rest of the statement. */
    private static String blank(String sql, int from, int to) {
        StringBuilder rest = new StringBuilder(sql);
        for (int i = from; i < to; i++) {
            if (rest.charAt(i) != '\n') {
                rest.setCharAt(i, ' ');
            }
        }
        return rest.toString();
    }

    private static LocusSqlException error(String sql, int offset, String message) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < offset && i < sql.length(); i++) {
            if (sql.charAt(i) == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        return new LocusSqlException(SqlState.SYNTAX_ERROR, message, line, column, null);
    }

    /** The statement with the hint blanked out. */
    public String statement() {
        return statement;
    }

    /** The parts the hint selects, one per table; empty for another system's hint. */
    public List<PartSelection> parts() {
        return parts;
    }
}
