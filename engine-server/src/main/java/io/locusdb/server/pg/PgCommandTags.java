package io.locusdb.server.pg;

import io.locusdb.core.sql.StatementParser;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** The CommandComplete tags PostgreSQL answers with, and error positions in a client's text. */
public final class PgCommandTags {
    private static final Set<String> CHANGES = Set.of("INSERT", "UPDATE", "DELETE", "MERGE", "COPY", "CREATE",
            "DROP", "ALTER", "TRUNCATE", "LOAD");

    private PgCommandTags() {
    }

    /** For a statement that returned rows: {@code SELECT n} (also for WITH, VALUES, TABLE), or e.g. EXPLAIN. */
    public static String forRows(String sql, long rows) {
        String first = command(sql, "SELECT");
        return switch (first) {
            case "EXPLAIN" -> "EXPLAIN";
            case "SHOW" -> "SHOW";
            case "FETCH" -> "FETCH " + rows;
            // ... RETURNING: the rows it returned are the rows it changed, tagged as PostgreSQL tags the change.
            case "INSERT" -> "INSERT 0 " + rows;
            case "UPDATE", "DELETE" -> first + " " + rows;
            default -> "SELECT " + rows;
        };
    }

    /** {@code CREATE [UNLOGGED] TABLE [IF NOT EXISTS] name [(names)] AS}: a table made from a query. */
    private static final Pattern CREATE_TABLE_AS = Pattern.compile("(?:\\s|--[^\\n]*\\n|/\\*.*?\\*/)*"
            + "CREATE\\s+(UNLOGGED\\s+)?TABLE\\s+"
            + "(IF\\s+NOT\\s+EXISTS\\s+)?(\"(?:[^\"]|\"\")+\"|[\\w.$]+)\\s*(\\([^)]*\\)\\s*)?AS\\b",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    /** For a statement that changed something: {@code INSERT 0 n}, {@code UPDATE n}, {@code CREATE TABLE}... */
    public static String forUpdate(String sql, long count) {
        List<String> words = PgSqlText.firstWords(sql, 6);
        if (words.isEmpty()) {
            return "SELECT 0";
        }
        long n = Math.max(0, count);
        String first = command(sql, words.get(0));
        if (CREATE_TABLE_AS.matcher(sql).lookingAt()) {
            // PostgreSQL tags CREATE TABLE ... AS query with the rows it wrote.
            return "SELECT " + n;
        }
        return switch (first) {
            case "INSERT" -> "INSERT 0 " + n;
            case "UPDATE", "DELETE", "MERGE", "COPY", "MOVE", "FETCH" -> first + " " + n;
            case "SELECT", "WITH", "VALUES", "TABLE" -> "SELECT " + n;
            case "CREATE", "DROP", "ALTER" -> {
                int i = 1;
                while (i < words.size() && List.of("OR", "REPLACE", "TEMP", "TEMPORARY", "UNLOGGED", "GLOBAL",
                        "LOCAL", "UNIQUE", "MATERIALIZED").contains(words.get(i))) {
                    if (words.get(i).equals("MATERIALIZED")) {
                        yield first + " MATERIALIZED " + (i + 1 < words.size() ? words.get(i + 1) : "");
                    }
                    i++;
                }
                yield i < words.size() ? first + " " + words.get(i) : first;
            }
            case "TRUNCATE" -> "TRUNCATE TABLE";
            default -> first;
        };
    }

    /** Whether a statement (run inside a transaction block) changed data or schema. */
    public static boolean changesData(String sql) {
        return CHANGES.contains(command(sql, ""));
    }

    /**
     * The statement's first word, in capitals, except after a leading WITH list that an INSERT, UPDATE or DELETE
     * follows: that statement's ({@code WITH ... DELETE} is tagged as PostgreSQL tags it, {@code DELETE n}).
     */
    private static String command(String sql, String none) {
        List<String> words = PgSqlText.firstWords(sql, 1);
        if (words.isEmpty()) {
            return none;
        }
        String change = words.get(0).equals("WITH") ? StatementParser.changeAfterWith(sql) : null;
        return change != null ? change : words.get(0);
    }

    /**
     * The 1-based character position in {@code text} (what the client sent) of line {@code line}, column
     * {@code column} (both 1-based) of the statement starting at {@code offset}.
     */
    public static int position(String text, int offset, int line, int column) {
        int at = offset;
        for (int l = 1; l < line; l++) {
            int nl = text.indexOf('\n', at);
            if (nl < 0) {
                return 0;
            }
            at = nl + 1;
        }
        int index = at + Math.max(1, column) - 1;
        return index < text.length() ? text.codePointCount(0, index) + 1 : 0;
    }
}
