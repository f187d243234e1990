package io.locusdb.server.pg;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL spellings the engine's SQL does not read, rewritten token by token (strings, quoted names and comments
 * are copied untouched): escape strings {@code E'..'} become standard strings, {@code OPERATOR(pg_catalog.op)}
 * becomes {@code op}, and {@code COLLATE pg_catalog.default} / {@code COLLATE "default"} are dropped (LocusDB
 * compares strings by code point, which is what those collations mean on a {@code C} database).
 */
public final class PgDialect {
    private final String user;
    private final String database;
    private final int processId;
    private final PgSettings settings;

    public PgDialect(String user, String database, int processId, PgSettings settings) {
        this.user = user;
        this.database = database;
        this.processId = processId;
        this.settings = settings;
    }

    public String user() {
        return user;
    }

    public String database() {
        return database;
    }

    public int processId() {
        return processId;
    }

    public PgSettings settings() {
        return settings;
    }

    public String rewrite(String sql) {
        StringBuilder out = null;
        int n = sql.length();
        int i = 0;
        int copied = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if ((c == 'E' || c == 'e') && i + 1 < n && sql.charAt(i + 1) == '\''
                    && (i == 0 || !isIdentifierPart(sql.charAt(i - 1)))) {
                int end = PgSqlText.skip(sql, i + 1);
                out = append(out, sql, copied, i).append(standardString(sql.substring(i + 2, Math.max(i + 2,
                        end - 1))));
                copied = end;
                i = end;
            } else if (c == '\'') {
                int end = PgSqlText.skip(sql, i);
                LiteralCast cast = LiteralCast.at(sql, i, end);
                if (cast != null) {
                    int from = cast.open >= 0 ? cast.open : i;
                    out = append(out, sql, copied, from).append(cast.replacement);
                    copied = cast.end;
                    i = cast.end;
                } else {
                    i = end;
                }
            } else if (c == '"' || c == '$' || c == '-' || c == '/') {
                i = PgSqlText.skip(sql, i);
            } else if (startsWord(sql, i, "OPERATOR")) {
                int open = skipBlanks(sql, i + 8);
                int close = open < n && sql.charAt(open) == '(' ? sql.indexOf(')', open) : -1;
                if (close < 0) {
                    i += 8;
                    continue;
                }
                String inner = sql.substring(open + 1, close).strip();
                int dot = inner.lastIndexOf('.');
                out = append(out, sql, copied, i).append(' ').append(dot >= 0 ? inner.substring(dot + 1) : inner)
                        .append(' ');
                copied = close + 1;
                i = close + 1;
            } else if (startsWord(sql, i, "COLLATE")) {
                int at = skipBlanks(sql, i + 7);
                int end = collationEnd(sql, at);
                String name = sql.substring(at, end).replace("\"", "").toLowerCase(Locale.ROOT);
                if (name.equals("pg_catalog.default") || name.equals("default") || name.equals("pg_catalog.c")
                        || name.equals("c") || name.equals("pg_catalog.\"c\"")) {
                    out = append(out, sql, copied, i);
                    copied = end;
                }
                i = end;
            } else {
                i++;
            }
        }
        if (out == null) {
            return sql;
        }
        return out.append(sql, copied, n).toString();
    }

    /**
     * A string literal cast to a type, {@code '42'::int8} or {@code ('2024-01-02 +00'::date)} (how drivers inline
     * parameters in simple query mode), folded into the literal of that type; the parentheses around it go too when
     * nothing could need them (after '(', ',' or a comparison).
     */
    private record LiteralCast(int open, int end, String replacement) {
        private static final Pattern INTEGER = Pattern.compile("\\s*[-+]?\\d+\\s*");
        private static final Pattern DECIMAL = Pattern.compile(
                "\\s*[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?\\s*");
        private static final Pattern DATE = Pattern.compile(
                "\\s*(\\d{4}-\\d{2}-\\d{2})([ T][0-9:.]*)?\\s*([-+]\\d{2}(:?\\d{2})?|Z|UTC)?\\s*");

        static LiteralCast at(String sql, int start, int end) {
            int n = sql.length();
            if (end > n || end - start < 2 || sql.charAt(end - 1) != '\'' || (start > 0 && (sql.charAt(start - 1) == 'E'
                    || sql.charAt(start - 1) == 'e'))) {
                return null;
            }
            int colons = skipBlanks(sql, end);
            String body = sql.substring(start + 1, end - 1);
            String literal;
            int typeEnd;
            if (sql.startsWith("::", colons)) {
                int typeStart = skipBlanks(sql, colons + 2);
                typeEnd = typeStart;
                while (typeEnd < n && (isIdentifierPart(sql.charAt(typeEnd)) || sql.charAt(typeEnd) == '.')) {
                    typeEnd++;
                }
                String type = sql.substring(typeStart, typeEnd).toLowerCase(Locale.ROOT);
                if (type.startsWith("pg_catalog.")) {
                    type = type.substring("pg_catalog.".length());
                }
                // Two-word type names: double precision, character varying.
                int second = skipBlanks(sql, typeEnd);
                for (String[] pair : new String[][] {{"double", "precision"}, {"character", "varying"}}) {
                    if (type.equals(pair[0]) && startsWord(sql, second, pair[1])) {
                        type = type + " " + pair[1];
                        typeEnd = second + pair[1].length();
                    }
                }
                int next = skipBlanks(sql, typeEnd);
                if (next < n && (sql.charAt(next) == '[' || sql.charAt(next) == '(')) {
                    return null;
                }
                literal = literal(type, body);
            } else {
                typeEnd = end;
                literal = sql.substring(start, end);
            }
            if (literal == null) {
                return null;
            }
            int after = skipBlanks(sql, typeEnd);
            int open = -1;
            int close = typeEnd;
            int before = start - 1;
            while (before >= 0 && Character.isWhitespace(sql.charAt(before))) {
                before--;
            }
            if (before >= 0 && sql.charAt(before) == '(' && after < n && sql.charAt(after) == ')') {
                int outer = before - 1;
                while (outer >= 0 && Character.isWhitespace(sql.charAt(outer))) {
                    outer--;
                }
                if (outer >= 0 && "(,=<>".indexOf(sql.charAt(outer)) >= 0) {
                    open = before;
                    close = after + 1;
                }
            }
            if (open < 0 && typeEnd == end) {
                return null;
            }
            return new LiteralCast(open, close, open >= 0 ? literal : " " + literal + " ");
        }

        private static String literal(String type, String quoted) {
            if (quoted.contains("'") && !type.equals("text") && !type.equals("varchar")) {
                return null;
            }
            return switch (type) {
                case "int2", "int4", "int8", "int", "integer", "bigint", "smallint", "oid" ->
                        INTEGER.matcher(quoted).matches() ? quoted.strip() : null;
                case "float4", "float8", "real", "double precision", "numeric", "decimal" ->
                        DECIMAL.matcher(quoted).matches() ? quoted.strip() : null;
                case "bool", "boolean" -> switch (quoted.strip().toLowerCase(Locale.ROOT)) {
                    case "t", "true", "y", "yes", "on", "1" -> "TRUE";
                    case "f", "false", "n", "no", "off", "0" -> "FALSE";
                    default -> null;
                };
                case "date" -> {
                    Matcher m = DATE.matcher(quoted);
                    yield m.matches() ? "DATE '" + m.group(1) + "'" : null;
                }
                case "text", "varchar", "character varying", "name", "unknown", "bpchar" -> "'" + quoted + "'";
                default -> null;
            };
        }
    }

    private static int collationEnd(String sql, int at) {
        int i = at;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '"') {
                i = PgSqlText.skip(sql, i);
            } else if (isIdentifierPart(c) || c == '.') {
                i++;
            } else {
                break;
            }
        }
        return i;
    }

    /** {@code E'..'}'s body as a standard string literal. */
    static String standardString(String body) {
        StringBuilder s = new StringBuilder(body.length() + 2).append('\'');
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '\\' && i + 1 < body.length()) {
                char e = body.charAt(++i);
                switch (e) {
                    case 'n' -> s.append('\n');
                    case 't' -> s.append('\t');
                    case 'r' -> s.append('\r');
                    case 'b' -> s.append('\b');
                    case 'f' -> s.append('\f');
                    case '\'' -> s.append("''");
                    default -> s.append(e);
                }
            } else if (c == '\'') {
                s.append("''");
                if (i + 1 < body.length() && body.charAt(i + 1) == '\'') {
                    i++;
                }
            } else {
                s.append(c);
            }
        }
        return s.append('\'').toString();
    }

    private static StringBuilder append(StringBuilder out, String sql, int from, int to) {
        StringBuilder b = out == null ? new StringBuilder(sql.length() + 16) : out;
        return b.append(sql, from, to);
    }

    private static boolean startsWord(String sql, int i, String word) {
        return sql.regionMatches(true, i, word, 0, word.length())
                && (i == 0 || !isIdentifierPart(sql.charAt(i - 1)))
                && (i + word.length() >= sql.length() || !isIdentifierPart(sql.charAt(i + word.length())));
    }

    private static int skipBlanks(String sql, int i) {
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isIdentifierPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }
}
