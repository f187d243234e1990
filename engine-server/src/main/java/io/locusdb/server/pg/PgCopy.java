package io.locusdb.server.pg;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A {@code COPY ... FROM STDIN} or {@code COPY ... TO STDOUT} statement (what psql's {@code \copy} and drivers' bulk
 * loads send), in text or CSV format, with the options PostgreSQL takes in both its current
 * ({@code WITH (FORMAT csv, HEADER)}) and its old ({@code WITH CSV HEADER}) spelling. Files on the server are not
 * read or written here: the engine's own {@code COPY t FROM 'file'} does that.
 *
 * @param table   the table, or null when a query is copied out
 * @param columns the named columns (empty: all)
 * @param query   the query copied out, or null
 */
public record PgCopy(String table, List<String> columns, String query, boolean toClient, boolean csv, char delimiter,
                     String nullText, boolean header, char quote, char escape) {

    public static boolean isCopy(String sql) {
        List<String> words = PgSqlText.firstWords(sql, 1);
        return !words.isEmpty() && words.get(0).equals("COPY");
    }

    public static PgCopy parse(String sql) {
        List<String> t = PgCommand.tokens(sql);
        int i = 1;
        String table = null;
        String query = null;
        List<String> columns = new ArrayList<>();
        if (i < t.size() && t.get(i).equals("(")) {
            int start = sql.indexOf('(');
            int end = PgSqlText.closingParen(sql, start);
            if (end < 0) {
                throw syntax("the COPY query's parenthesis is not closed");
            }
            query = sql.substring(start + 1, end);
            int depth = 0;
            for (; i < t.size(); i++) {
                if (t.get(i).equals("(")) {
                    depth++;
                } else if (t.get(i).equals(")") && --depth == 0) {
                    i++;
                    break;
                }
            }
        } else {
            if (i >= t.size()) {
                throw syntax("COPY needs a table or a (query)");
            }
            table = identifier(t.get(i++));
            if (i < t.size() && t.get(i).equals("(")) {
                i++;
                while (i < t.size() && !t.get(i).equals(")")) {
                    if (!t.get(i).equals(",")) {
                        columns.add(identifier(t.get(i)));
                    }
                    i++;
                }
                i++;
            }
        }
        if (i + 1 >= t.size()) {
            throw syntax("COPY needs FROM STDIN or TO STDOUT");
        }
        String direction = t.get(i).toUpperCase(Locale.ROOT);
        String target = t.get(i + 1).toUpperCase(Locale.ROOT);
        boolean toClient;
        if (direction.equals("FROM") && target.equals("STDIN")) {
            toClient = false;
        } else if (direction.equals("TO") && target.equals("STDOUT")) {
            toClient = true;
        } else if (direction.equals("FROM") || direction.equals("TO")) {
            throw new PgDataException("0A000", "COPY " + direction + " a file or program is not supported over the"
                    + " PostgreSQL protocol: use psql's \\copy (COPY ... " + (direction.equals("FROM") ? "FROM STDIN"
                    : "TO STDOUT") + ")");
        } else {
            throw syntax("expected FROM or TO after the COPY source, found " + t.get(i));
        }
        if (query != null && !toClient) {
            throw syntax("COPY FROM needs a table, not a query");
        }
        i += 2;
        Options o = new Options();
        if (i < t.size() && t.get(i).equalsIgnoreCase("WITH")) {
            i++;
        }
        if (i < t.size() && t.get(i).equals("(")) {
            i++;
            while (i < t.size() && !t.get(i).equals(")")) {
                String name = t.get(i++).toUpperCase(Locale.ROOT);
                String value = null;
                if (i < t.size() && !t.get(i).equals(",") && !t.get(i).equals(")")) {
                    value = t.get(i++);
                }
                o.set(name, value);
                if (i < t.size() && t.get(i).equals(",")) {
                    i++;
                }
            }
        } else {
            // The spelling of PostgreSQL before 9.0, which psql users still write.
            while (i < t.size()) {
                String name = t.get(i++).toUpperCase(Locale.ROOT);
                switch (name) {
                    case "CSV", "BINARY", "TEXT" -> o.set("FORMAT", name);
                    case "HEADER" -> o.set("HEADER", null);
                    case "DELIMITER", "NULL", "QUOTE", "ESCAPE" -> {
                        if (i < t.size() && t.get(i).equalsIgnoreCase("AS")) {
                            i++;
                        }
                        if (i >= t.size()) {
                            throw syntax(name + " needs a value");
                        }
                        o.set(name, t.get(i++));
                    }
                    case ";" -> {
                    }
                    default -> throw syntax("unknown COPY option " + name);
                }
            }
        }
        return new PgCopy(table, List.copyOf(columns), query, toClient, o.csv, o.delimiter(), o.nullText(),
                o.header, o.quote, o.escape == 0 ? o.quote : o.escape);
    }

    private static final class Options {
        boolean csv;
        Character delimiter;
        String nullText;
        boolean header;
        char quote = '"';
        char escape;

        void set(String name, String rawValue) {
            String value = rawValue == null ? null : PgSqlText.unquote(rawValue);
            switch (name) {
                case "FORMAT" -> {
                    String f = value == null ? "" : value.toLowerCase(Locale.ROOT);
                    switch (f) {
                        case "csv" -> csv = true;
                        case "text" -> csv = false;
                        case "binary" -> throw new PgDataException("0A000", "COPY in binary format is not"
                                + " supported: use text or csv");
                        default -> throw syntax("COPY format \"" + value + "\" not recognized");
                    }
                }
                case "DELIMITER" -> delimiter = oneCharacter(name, value);
                case "NULL" -> nullText = value;
                case "HEADER" -> header = value == null || PgType.parseBool(value);
                case "QUOTE" -> quote = oneCharacter(name, value);
                case "ESCAPE" -> escape = oneCharacter(name, value);
                case "ENCODING" -> {
                    if (value == null || !value.replace("-", "").equalsIgnoreCase("UTF8")) {
                        throw new PgDataException("0A000", "COPY encoding " + value + " is not supported: use UTF8");
                    }
                }
                case "FREEZE", "FORCE_QUOTE", "FORCE_NOT_NULL", "FORCE_NULL" -> {
                }
                default -> throw syntax("option \"" + name.toLowerCase(Locale.ROOT) + "\" not recognized");
            }
        }

        char delimiter() {
            return delimiter != null ? delimiter : csv ? ',' : '\t';
        }

        String nullText() {
            return nullText != null ? nullText : csv ? "" : "\\N";
        }
    }

    private static char oneCharacter(String option, String value) {
        if (value == null || value.length() != 1) {
            throw new PgDataException("22023", "COPY " + option.toLowerCase(Locale.ROOT)
                    + " must be a single one-byte character");
        }
        return value.charAt(0);
    }

    private static String identifier(String token) {
        if (token.startsWith("\"") && token.endsWith("\"") && token.length() >= 2) {
            return token.substring(1, token.length() - 1).replace("\"\"", "\"");
        }
        int dot = token.lastIndexOf('.');
        return (dot >= 0 ? token.substring(dot + 1) : token).toLowerCase(Locale.ROOT);
    }

    private static PgDataException syntax(String message) {
        return new PgDataException("42601", message);
    }
}
