package io.locusdb.server.pg;

import io.locusdb.core.sql.pg.PgOids;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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

    /** The SQL standard's names of array element types, as PostgreSQL names them in its array type names. */
    private static final Map<String, String> ARRAY_ELEMENT_NAMES = Map.of("integer", "int4",
            "int", "int4", "smallint", "int2", "bigint", "int8", "real", "float4", "boolean", "bool", "float8", "float8",
            "varchar", "varchar");

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
        return rewriteTokens(tableFunctionsInFrom(sql));
    }

    private static final Pattern SERIES_CALL = Pattern.compile("(?i)(pg_catalog\\.)?generate_series\\s*\\(");

    /**
     * {@code FROM generate_series(f(x), ...)} as {@code FROM TABLE(generate_series(f(x), ...))}: the engine's
     * grammar reads a name followed by a parenthesis in FROM as a table with extra columns when the first argument
     * starts with a name; inside TABLE(...) it is a function call. Text in strings and comments is left alone.
     */
    static String tableFunctionsInFrom(String sql) {
        Matcher series = SERIES_CALL.matcher(sql);
        if (!series.find()) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length() + 16);
        List<Integer> closes = new ArrayList<>();
        // The clause each open parenthesis level is in (FROM, WHERE, ...), and the last word or sign seen.
        List<String> clauses = new ArrayList<>(List.of(""));
        String previous = "";
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            while (!closes.isEmpty() && closes.getFirst() == i) {
                out.append(')');
                closes.removeFirst();
            }
            if (c == '\'' || c == '"' || c == '$' || c == '-' || c == '/') {
                int end = PgSqlText.skip(sql, i);
                if (end > i + 1 || c == '\'' || c == '"') {
                    out.append(sql, i, Math.max(end, i + 1));
                    i = Math.max(end, i + 1);
                    previous = c == '"' ? "name" : previous;
                    continue;
                }
            }
            if (Character.isLetter(c) && (i == 0 || !isIdentifierPart(sql.charAt(i - 1)) && sql.charAt(i - 1) != '.')) {
                boolean inFrom = previous.equals("FROM") || previous.equals("JOIN") || previous.equals("LATERAL")
                        || previous.equals(",") && clauses.getLast().equals("FROM");
                if (inFrom && series.region(i, n).lookingAt()) {
                    int close = PgSqlText.closingParen(sql, series.end() - 1);
                    if (close > 0) {
                        out.append("TABLE(");
                        closes.add(close + 1);
                        closes.sort(null);
                    }
                }
                int wordEnd = i;
                while (wordEnd < n && (isIdentifierPart(sql.charAt(wordEnd)) || sql.charAt(wordEnd) == '.')) {
                    wordEnd++;
                }
                String word = sql.substring(i, wordEnd).toUpperCase(Locale.ROOT);
                if (CLAUSE_WORDS.contains(word)) {
                    // After a join's ON or USING, a comma at the same level starts the next FROM item again.
                    clauses.set(clauses.size() - 1, FROM_LIST_WORDS.contains(word) ? "FROM" : word);
                }
                previous = word;
                out.append(sql, i, wordEnd);
                i = wordEnd;
                continue;
            }
            if (c == '(') {
                clauses.add("");
            } else if (c == ')' && clauses.size() > 1) {
                clauses.removeLast();
            }
            if (!Character.isWhitespace(c)) {
                previous = String.valueOf(c);
            }
            out.append(c);
            i++;
        }
        while (!closes.isEmpty()) {
            out.append(')');
            closes.removeFirst();
        }
        return out.toString();
    }

    private static final Set<String> FROM_LIST_WORDS = Set.of("FROM", "JOIN", "ON", "USING");

    /** Words that start a clause: a comma after FROM (or JOIN) separates tables, elsewhere it does not. */
    private static final Set<String> CLAUSE_WORDS = Set.of("SELECT", "FROM", "JOIN", "WHERE", "GROUP", "HAVING",
            "ORDER", "LIMIT", "OFFSET", "ON", "USING", "WINDOW", "VALUES", "SET", "RETURNING", "UNION", "INTERSECT",
            "EXCEPT");

    private String rewriteTokens(String sql) {
        StringBuilder out = null;
        int n = sql.length();
        int i = 0;
        int copied = 0;
        while (i < n) {
            char c = sql.charAt(i);
            int start = i;
            int end = -1;
            String replacement = null;
            if ((c == 'E' || c == 'e') && i + 1 < n && sql.charAt(i + 1) == '\''
                    && (i == 0 || !isIdentifierPart(sql.charAt(i - 1)))) {
                end = PgSqlText.skip(sql, i + 1);
                replacement = standardString(sql.substring(i + 2, Math.max(i + 2, end - 1)));
            } else if (c == '\'') {
                int stringEnd = PgSqlText.skip(sql, i);
                LiteralCast cast = LiteralCast.at(sql, i, stringEnd);
                if (cast == null) {
                    i = stringEnd;
                    continue;
                }
                // A cast in parentheses replaces them too.
                start = cast.open >= 0 ? cast.open : i;
                end = cast.end;
                replacement = cast.replacement;
            } else if (c == '"' || c == '$' || c == '-' || c == '/') {
                i = PgSqlText.skip(sql, i);
                continue;
            } else if (c == '=' || c == '<' || c == '!') {
                ArrayMembership membership = ArrayMembership.at(sql, i);
                if (membership != null) {
                    end = membership.end;
                    replacement = membership.replacement;
                }
            } else if (c == '[' && i > 0 && isIdentifierPart(sql.charAt(i - 1))) {
                // An array type, int4[] or pg_catalog.text[]: PostgreSQL's own name for it, _int4.
                int close = skipBlanks(sql, i + 1);
                int word = i;
                while (word > 0 && isIdentifierPart(sql.charAt(word - 1))) {
                    word--;
                }
                String element = sql.substring(word, i);
                // ARRAY[] is an empty array, not a type.
                if (close < n && sql.charAt(close) == ']' && !element.equalsIgnoreCase("ARRAY")) {
                    String lower = element.toLowerCase(Locale.ROOT);
                    // Two-word names: double precision[], character varying[].
                    int previous = word - 1;
                    while (previous >= 0 && Character.isWhitespace(sql.charAt(previous))) {
                        previous--;
                    }
                    String first = lower.equals("precision") ? "double" : lower.equals("varying") ? "character" : null;
                    if (first != null && previous + 1 >= first.length() && sql.substring(previous + 1
                            - first.length(), previous + 1).equalsIgnoreCase(first)) {
                        word = previous + 1 - first.length();
                        lower = first.equals("double") ? "float8" : "varchar";
                    }
                    start = word;
                    end = close + 1;
                    replacement = "_" + ARRAY_ELEMENT_NAMES.getOrDefault(lower, element);
                }
            } else if (c == '(') {
                Matcher m = SCHEMAS_SUBSCRIPT.matcher(sql).region(i, n);
                if (m.lookingAt()) {
                    List<String> schemas = Boolean.parseBoolean(m.group(2).toLowerCase(Locale.ROOT))
                            ? List.of("pg_catalog", "public") : List.of("public");
                    int index = Integer.parseInt(m.group(3));
                    end = m.end();
                    replacement = index >= 1 && index <= schemas.size() ? quote(schemas.get(index - 1))
                            : "CAST(NULL AS VARCHAR)";
                }
            } else if (Character.isLetter(c) && (i == 0 || !isIdentifierPart(sql.charAt(i - 1))
                    && sql.charAt(i - 1) != '.' && sql.charAt(i - 1) != '"')) {
                SessionCall call = sessionCall(sql, i);
                if (call != null) {
                    end = call.end;
                    replacement = call.replacement;
                } else if (startsWord(sql, i, "OPERATOR")) {
                    int open = skipBlanks(sql, i + 8);
                    int close = open < n && sql.charAt(open) == '(' ? sql.indexOf(')', open) : -1;
                    if (close >= 0) {
                        String inner = sql.substring(open + 1, close).strip();
                        int dot = inner.lastIndexOf('.');
                        end = close + 1;
                        replacement = " " + (dot >= 0 ? inner.substring(dot + 1) : inner) + " ";
                    }
                } else if (startsWord(sql, i, "AS")) {
                    // PostgreSQL takes any word as an alias after AS ("AS table", "AS select"); the engine's
                    // grammar reserves some, so those are quoted (names are case-insensitive either way).
                    int word = skipBlanks(sql, i + 2);
                    int wordEnd = word;
                    while (wordEnd < n && isIdentifierPart(sql.charAt(wordEnd))) {
                        wordEnd++;
                    }
                    String alias = sql.substring(word, wordEnd);
                    if (wordEnd > word && RESERVED_ALIASES.contains(alias.toLowerCase(Locale.ROOT))
                            && endsSelectItem(sql, wordEnd)) {
                        start = word;
                        end = wordEnd;
                        replacement = "\"" + alias.toLowerCase(Locale.ROOT) + "\"";
                    }
                } else if (startsWord(sql, i, "COLLATE")) {
                    int at = skipBlanks(sql, i + 7);
                    int nameEnd = collationEnd(sql, at);
                    String name = sql.substring(at, nameEnd).replace("\"", "").toLowerCase(Locale.ROOT);
                    if (name.equals("pg_catalog.default") || name.equals("default") || name.equals("pg_catalog.c")
                            || name.equals("c")) {
                        end = nameEnd;
                        replacement = "";
                    }
                }
                if (end < 0) {
                    int j = i;
                    while (j < n && isIdentifierPart(sql.charAt(j))) {
                        j++;
                    }
                    i = j;
                    continue;
                }
            }
            if (end < 0) {
                i++;
                continue;
            }
            out = append(out, sql, copied, start).append(replacement);
            copied = end;
            i = end;
        }
        String rewritten = out == null ? sql : out.append(sql, copied, n).toString();
        return standardCasts(rewritten);
    }

    /**
     * {@code x::type} as {@code CAST(x AS type)}. PostgreSQL binds {@code ::} tighter than any other operator
     * ({@code t.oid = $1::regtype} casts only the parameter); the engine's grammar does not, so the operand is found
     * here: a name (possibly qualified or quoted), a number, a string, a parameter, or a parenthesized expression
     * with the function name before it.
     */
    static String standardCasts(String sql) {
        if (!sql.contains("::")) {
            return sql;
        }
        StringBuilder b = new StringBuilder(sql);
        int i = 0;
        while (i < b.length() - 1) {
            char c = b.charAt(i);
            if (c == '\'' || c == '"' || c == '$' || c == '-' || c == '/') {
                int next = PgSqlText.skip(b.toString(), i);
                if (next > i + 1 || c != '$') {
                    i = Math.max(next, i + 1);
                    continue;
                }
            }
            if (c != ':' || b.charAt(i + 1) != ':') {
                i++;
                continue;
            }
            int operandStart = operandStart(b, i);
            int typeStart = skipBlanks(b.toString(), i + 2);
            int typeEnd = typeEnd(b, typeStart);
            if (operandStart < 0 || typeEnd <= typeStart) {
                i += 2;
                continue;
            }
            String operand = b.substring(operandStart, i).strip();
            String type = b.substring(typeStart, typeEnd);
            String cast = "CAST(" + operand + " AS " + type + ")";
            Matcher regtype = REGTYPE_CAST.matcher(operand);
            if (regtype.matches() && TEXT_TYPES.contains(bareType(type))) {
                // An OID cast to regtype prints as the type's name.
                cast = "pg_catalog.format_type(" + regtype.group(1) + ", NULL)";
            } else if (bareType(type).equals("regtype") && (operand.equals("?") || operand.startsWith("'"))) {
                cast = "pg_catalog.to_regtype(" + operand + ")";
            }
            b.replace(operandStart, typeEnd, cast);
            i = operandStart + cast.length();
        }
        return b.toString();
    }

    private static final Pattern REGTYPE_CAST = Pattern.compile("(?is)CAST\\((.*) AS (pg_catalog\\.)?regtype\\)");
    private static final Set<String> TEXT_TYPES = Set.of("text", "varchar", "character varying",
            "name");

    private static String bareType(String type) {
        String t = type.strip().toLowerCase(Locale.ROOT).replace("\"", "");
        return t.startsWith("pg_catalog.") ? t.substring("pg_catalog.".length()) : t;
    }

    /** Where the operand of the {@code ::} at {@code at} starts, or -1 when it is not one this can find. */
    private static int operandStart(StringBuilder b, int at) {
        int i = at - 1;
        while (i >= 0 && Character.isWhitespace(b.charAt(i))) {
            i--;
        }
        if (i < 0) {
            return -1;
        }
        char c = b.charAt(i);
        if (c == ')' || c == ']') {
            char open = c == ')' ? '(' : '[';
            int depth = 0;
            for (; i >= 0; i--) {
                char d = b.charAt(i);
                if (d == c) {
                    depth++;
                } else if (d == open && --depth == 0) {
                    break;
                }
            }
            if (i < 0) {
                return -1;
            }
            // A function call or ARRAY[...]: the name goes with its parentheses.
            int name = i;
            while (name > 0 && (isIdentifierPart(b.charAt(name - 1)) || b.charAt(name - 1) == '.')) {
                name--;
            }
            return name;
        }
        if (c == '\'') {
            // Back over the string, whose '' pairs are part of it.
            int j = i - 1;
            while (j >= 0) {
                if (b.charAt(j) == '\'') {
                    if (j > 0 && b.charAt(j - 1) == '\'') {
                        j -= 2;
                        continue;
                    }
                    return j > 0 && (b.charAt(j - 1) == 'E' || b.charAt(j - 1) == 'e') ? j - 1 : j;
                }
                j--;
            }
            return -1;
        }
        if (isIdentifierPart(c) || c == '"' || c == '?') {
            // Back over a name, possibly qualified and quoted (a.b, "T".c), a number or a parameter.
            int k = i;
            while (k >= 0) {
                char d = b.charAt(k);
                if (d == '"') {
                    int q = b.lastIndexOf("\"", k - 1);
                    if (q < 0) {
                        return -1;
                    }
                    k = q - 1;
                } else if (isIdentifierPart(d) || d == '.' || d == '$' || d == '?') {
                    k--;
                } else {
                    break;
                }
            }
            return k + 1;
        }
        return -1;
    }

    /** The end of the type name at {@code at}: words (two for double precision and the like), (n[,m]), []. */
    private static int typeEnd(StringBuilder b, int at) {
        String s = b.toString();
        int i = at;
        while (i < s.length() && (isIdentifierPart(s.charAt(i)) || s.charAt(i) == '.' || s.charAt(i) == '"')) {
            i++;
        }
        String word = s.substring(at, i).toLowerCase(Locale.ROOT);
        int next = skipBlanks(s, i);
        for (String[] pair : new String[][] {{"double", "precision"}, {"character", "varying"},
                {"timestamp", "with"}, {"timestamp", "without"}}) {
            if (word.equals(pair[0]) && startsWord(s, next, pair[1])) {
                i = next + pair[1].length();
                if (pair[1].equals("with") || pair[1].equals("without")) {
                    int zone = skipBlanks(s, skipBlanks(s, i) + "time".length());
                    i = startsWord(s, zone, "zone") ? zone + 4 : i;
                }
                next = skipBlanks(s, i);
            }
        }
        if (next < s.length() && s.charAt(next) == '(') {
            int close = s.indexOf(')', next);
            if (close > 0) {
                i = close + 1;
                next = skipBlanks(s, i);
            }
        }
        while (next + 1 < s.length() && s.charAt(next) == '[' && s.charAt(next + 1) == ']') {
            i = next + 2;
            next = skipBlanks(s, i);
        }
        return i;
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
                case "regclass" -> Long.toString(PgOids.regclass(quoted.replace("''", "'")));
                // pg_type's typinput and friends hold the function's name (pgjdbc: typinput = 'array_in'::regproc).
                case "regproc" -> "'" + quoted.strip().replaceFirst("(?i)^pg_catalog\\.", "") + "'";
                default -> null;
            };
        }
    }

    /**
     * {@code x = ANY (ARRAY[a, b])} and {@code x <> ALL (ARRAY[a, b])} (how SQLAlchemy and others test membership) as
     * {@code x IN (a, b)} and {@code x NOT IN (a, b)}: the same truth, NULLs included, without arrays.
     */
    private record ArrayMembership(int end, String replacement) {
        private static final Pattern START = Pattern.compile("(?i)(=|<>|!=)\\s*(ANY|SOME|ALL)\\s*\\(\\s*ARRAY\\s*\\[");

        static ArrayMembership at(String sql, int i) {
            Matcher m = START.matcher(sql).region(i, sql.length());
            if (!m.lookingAt()) {
                return null;
            }
            boolean equals = m.group(1).equals("=");
            boolean any = !m.group(2).equalsIgnoreCase("ALL");
            if (equals != any) {
                return null;
            }
            int depth = 1;
            int j = m.end();
            while (j < sql.length() && depth > 0) {
                char c = sql.charAt(j);
                if (c == '[') {
                    depth++;
                } else if (c == ']') {
                    depth--;
                }
                j = depth == 0 ? j : c == '[' || c == ']' ? j + 1 : PgSqlText.skip(sql, j);
            }
            if (depth != 0) {
                return null;
            }
            String items = sql.substring(m.end(), j);
            int close = skipBlanks(sql, j + 1);
            if (close >= sql.length() || sql.charAt(close) != ')' || items.isBlank()) {
                return null;
            }
            return new ArrayMembership(close + 1, (equals ? " IN (" : " NOT IN (") + items + ")");
        }
    }

    /** Whether what follows {@code at} ends a select item: ',', ')', ';', the end, or the next clause's keyword. */
    private static boolean endsSelectItem(String sql, int at) {
        int next = skipBlanks(sql, at);
        if (next >= sql.length() || ",);".indexOf(sql.charAt(next)) >= 0) {
            return true;
        }
        for (String clause : List.of("FROM", "WHERE", "GROUP", "ORDER", "LIMIT", "UNION", "HAVING")) {
            if (startsWord(sql, next, clause)) {
                return true;
            }
        }
        return false;
    }

    /** Words the engine's grammar reserves that PostgreSQL lets a query use as a column alias after AS. */
    private static final Set<String> RESERVED_ALIASES = Set.of("table", "select", "insert", "update", "delete",
            "user", "value", "values", "order", "group", "from", "where", "default", "check", "column", "year",
            "month", "day", "hour", "minute", "second", "position", "language", "result", "role", "schema");

    /** A call of a function whose value is the session's, replaced by that value as a literal. */
    private record SessionCall(int end, String replacement) {
    }

    private static final Pattern CALL = Pattern.compile("(?i)(pg_catalog\\.)?([a-z_]+)\\s*\\(");
    private static final Pattern KEYWORD = Pattern.compile("(?i)(pg_catalog\\.)?(current_user|session_user|current_role"
            + "|current_catalog|user)(?![a-z0-9_(.])");
    private static final Pattern SCHEMAS_SUBSCRIPT = Pattern.compile(
            "(?i)\\(\\s*(pg_catalog\\.)?current_schemas\\s*\\(\\s*(true|false)\\s*\\)\\s*\\)\\s*\\[\\s*(\\d+)\\s*]");

    private SessionCall sessionCall(String sql, int at) {
        Matcher keyword = KEYWORD.matcher(sql).region(at, sql.length());
        if (keyword.lookingAt()) {
            String word = keyword.group(2).toLowerCase(Locale.ROOT);
            return new SessionCall(keyword.end(), word.equals("current_catalog") ? quote(PgSettings.DATABASE)
                    : quote(user));
        }
        Matcher m = CALL.matcher(sql).region(at, sql.length());
        if (!m.lookingAt()) {
            return null;
        }
        String name = m.group(2).toLowerCase(Locale.ROOT);
        int close = PgSqlText.closingParen(sql, m.end() - 1);
        if (close < 0) {
            return null;
        }
        List<String> args = literalArguments(sql.substring(m.end(), close));
        String value = switch (name) {
            case "current_database" -> args != null && args.isEmpty() ? quote(PgSettings.DATABASE) : null;
            case "current_schema" -> args != null && args.isEmpty() ? quote("public") : null;
            // The search path (pgjdbc's type lookups ask "nspname = ANY(current_schemas(true))"); with true, the
            // implicitly searched pg_catalog too.
            case "current_schemas" -> args == null || args.size() != 1 ? null : PgType.parseBool(args.get(0))
                    ? "ARRAY['pg_catalog', 'public']" : "ARRAY['public']";
            case "version" -> args != null && args.isEmpty() ? quote("PostgreSQL " + PgSettings.SERVER_VERSION
                    + " on x86_64-pc-linux-gnu, compiled by LocusDB, 64-bit") : null;
            case "pg_backend_pid" -> args != null && args.isEmpty() ? Integer.toString(processId) : null;
            case "current_setting" -> {
                if (args == null || args.isEmpty() || args.size() > 2) {
                    yield null;
                }
                String setting = settings.get(args.get(0));
                if (setting == null && !(args.size() == 2 && PgType.parseBool(args.get(1)))) {
                    throw new PgDataException("42704", "unrecognized configuration parameter \"" + args.get(0)
                            + "\"");
                }
                yield setting == null ? "CAST(NULL AS VARCHAR)" : quote(setting);
            }
            case "set_config" -> {
                if (args == null || args.size() != 3) {
                    yield null;
                }
                yield quote(settings.set(args.get(0), args.get(1)).value());
            }
            default -> null;
        };
        return value == null ? null : new SessionCall(close + 1, value);
    }

    /** The arguments when each is a string, number or boolean literal; null otherwise. */
    private static List<String> literalArguments(String text) {
        List<String> args = new ArrayList<>();
        if (text.isBlank()) {
            return args;
        }
        for (String token : PgCommand.tokens(text)) {
            if (token.equals(",")) {
                continue;
            }
            if (token.startsWith("'") && token.endsWith("'") && token.length() >= 2) {
                args.add(token.substring(1, token.length() - 1).replace("''", "'"));
            } else if (token.matches("(?i)[-+]?\\d+(\\.\\d*)?|true|false")) {
                args.add(token);
            } else {
                return null;
            }
        }
        return args;
    }

    private static String quote(String value) {
        return "'" + value.replace("'", "''") + "'";
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
