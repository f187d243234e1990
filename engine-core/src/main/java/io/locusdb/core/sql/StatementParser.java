package io.locusdb.core.sql;

import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.type.ColumnType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Parses LocusDB's DDL, INSERT ... VALUES and load statements, whose placement clauses ({@code PARTITION BY HASH(c)
 * PARTITIONS n}, {@code IN GROUP g}) Calcite's grammar does not have. Queries are not parsed here:
 * {@link #parse} returns null for anything that is not one of these statements, and Calcite takes it. Errors carry
 * the line and column of the offending token.
 */
public final class StatementParser {
    private final String sql;
    private final List<Token> tokens;
    private int next;

    private record Token(Kind kind, String text, int offset, int end) {
        boolean is(String keyword) {
            return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
        }
    }

    private enum Kind {
        WORD, QUOTED, STRING, NUMBER, SYMBOL, END
    }

    private StatementParser(String sql) {
        this.sql = sql;
        this.tokens = tokenize(sql);
    }

    private static final Pattern OURS = Pattern.compile(
            "(?:\\s|--[^\\n]*(?:\\n|$)|/\\*.*?\\*/)*(create|drop|insert|load|copy|alter|update|delete|truncate)\\b",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private static final Pattern WITH = Pattern.compile("(?:\\s|--[^\\n]*(?:\\n|$)|/\\*.*?\\*/)*with\\b",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    /** The statement, or null when {@code sql} is not a DDL/INSERT/LOAD/COPY statement. */
    public static Statement parse(String sql) {
        // Decide on the first keyword before tokenizing: queries are Calcite's, whatever their lexical details.
        boolean ours = OURS.matcher(sql).lookingAt();
        if (!ours && !WITH.matcher(sql).lookingAt()) {
            return null;
        }
        StatementParser p;
        CommonTables with = null;
        if (ours) {
            p = new StatementParser(sql);
        } else {
            try {
                p = new StatementParser(sql);
                with = p.commonTables();
            } catch (LocusSqlException e) {
                // Lexical details this tokenizer does not know (E'...' strings): a query, which Calcite reads.
                return null;
            }
            if (with == null) {
                // WITH ... SELECT: a query.
                return null;
            }
        }
        Token first = p.peek();
        if (first.is("INSERT") || first.is("UPDATE") || first.is("DELETE")) {
            Token returning = p.topLevel("RETURNING");
            if (returning != null) {
                return p.returning(returning);
            }
        }
        if (first.is("CREATE") || first.is("DROP") || first.is("INSERT") || first.is("LOAD") || first.is("COPY")
                || first.is("ALTER") || first.is("UPDATE") || first.is("DELETE") || first.is("TRUNCATE")) {
            Statement s = p.statement();
            p.acceptSymbol(";");
            if (p.peek().kind != Kind.END) {
                throw p.error(p.peek(), "unexpected '" + p.peek().text + "' after the end of the statement");
            }
            return with == null ? s : p.reading(with, s, first);
        }
        return null;
    }

    /**
     * The keyword of the statement a leading {@code WITH} list serves when it is an INSERT, UPDATE or DELETE (in
     * capitals), else null: a query, or no WITH list.
     */
    public static String changeAfterWith(String sql) {
        if (!WITH.matcher(sql).lookingAt()) {
            return null;
        }
        try {
            StatementParser p = new StatementParser(sql);
            return p.commonTables() == null ? null : p.peek().text.toUpperCase(Locale.ROOT);
        } catch (LocusSqlException e) {
            return null;
        }
    }

    /** A statement's leading {@code WITH} list: its text and the names it defines. */
    private record CommonTables(String text, List<String> names) {
    }

    /**
     * After {@code WITH}, the list of named queries up to the statement they serve: when that is an INSERT, UPDATE
     * or DELETE, the list (the parser then stands on the statement's keyword); null when it is a query.
     */
    private CommonTables commonTables() {
        Token with = take();
        List<String> names = new ArrayList<>();
        boolean nameNext = true;
        int depth = 0;
        for (int i = next; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.kind == Kind.SYMBOL && t.text.equals("(")) {
                depth++;
            } else if (t.kind == Kind.SYMBOL && t.text.equals(")")) {
                depth--;
            } else if (depth == 0 && t.kind == Kind.SYMBOL && t.text.equals(",")) {
                nameNext = true;
            } else if (depth == 0 && (t.is("SELECT") || t.is("VALUES") || t.is("TABLE"))) {
                return null;
            } else if (depth == 0 && (t.is("INSERT") || t.is("UPDATE") || t.is("DELETE"))) {
                next = i;
                // Up to the list's last token: a comment after it would swallow the query it is put before.
                return new CommonTables(sql.substring(with.offset, tokens.get(i - 1).end), names);
            } else if (depth == 0 && nameNext && !t.is("RECURSIVE") && (t.kind == Kind.WORD || t.kind == Kind.QUOTED)) {
                names.add(t.kind == Kind.WORD ? t.text.toLowerCase(Locale.ROOT) : t.text);
                nameNext = false;
            }
        }
        return null;
    }

    /**
     * {@code statement} with the named queries of {@code with} visible to the queries it runs: before an INSERT's
     * SELECT, and before the query by which an UPDATE or DELETE finds its rows. The rows of INSERT ... VALUES are
     * literals, which no named query can change.
     */
    private Statement reading(CommonTables with, Statement statement, Token keyword) {
        if ((statement instanceof Statement.InsertSelect i && i.onConflict() != null)
                || (statement instanceof Statement.Insert v && v.onConflict() != null)) {
            throw error(keyword, "WITH before INSERT ... ON CONFLICT is not supported: put the WITH list in the"
                    + " INSERT's SELECT", SqlState.FEATURE_NOT_SUPPORTED);
        }
        return switch (statement) {
            // The query's own text may end in a comment: the closing bracket goes on a line of its own.
            case Statement.InsertSelect i -> new Statement.InsertSelect(i.table(), i.columns(),
                    WITH.matcher(i.query()).lookingAt()
                            ? with.text() + " SELECT * FROM (" + i.query() + "\n) AS locus_insert"
                            : with.text() + " " + i.query(), i.onConflict());
            case Statement.Delete d -> new Statement.Delete(d.table(), d.alias(), d.condition(),
                    changedTableNotNamed(with, d.table(), keyword));
            case Statement.Update u -> new Statement.Update(u.table(), u.alias(), u.columns(), u.expressions(),
                    u.from(), u.condition(), changedTableNotNamed(with, u.table(), keyword));
            default -> statement;
        };
    }

    /**
     * {@code with}'s text, once sure that no named query takes the name of the table an UPDATE or DELETE changes:
     * the statement finds its rows by a query that names the table, where such a name would read the named query.
     */
    private String changedTableNotNamed(CommonTables with, String table, Token keyword) {
        if (with.names().stream().anyMatch(table::equalsIgnoreCase)) {
            throw error(keyword, "a WITH query named like the table this statement changes ('" + table + "') is not"
                    + " supported: give the WITH query another name", SqlState.FEATURE_NOT_SUPPORTED);
        }
        return with.text();
    }

    /** The first {@code keyword} outside brackets, or null. */
    private Token topLevel(String keyword) {
        int depth = 0;
        for (Token t : tokens) {
            if (t.kind == Kind.SYMBOL && t.text.equals("(")) {
                depth++;
            } else if (t.kind == Kind.SYMBOL && t.text.equals(")")) {
                depth--;
            } else if (depth == 0 && t.is(keyword)) {
                return t;
            }
        }
        return null;
    }

    /** The statement before {@code returning}, with the list after it. */
    private Statement returning(Token returning) {
        Statement inner = parse(sql.substring(0, returning.offset));
        String list = sql.substring(returning.end).strip();
        if (list.endsWith(";")) {
            list = list.substring(0, list.length() - 1).strip();
        }
        if (list.isEmpty()) {
            throw error(returning, "expected the expressions to return after RETURNING");
        }
        return switch (inner) {
            case Statement.Insert i -> new Statement.Returning(i, i.table(), null, list);
            case Statement.InsertSelect i -> new Statement.Returning(i, i.table(), null, list);
            case Statement.Update u -> new Statement.Returning(u, u.table(), u.alias(), list);
            case Statement.Delete d -> new Statement.Returning(d, d.table(), d.alias(), list);
            default -> throw error(returning, "RETURNING after this statement", SqlState.FEATURE_NOT_SUPPORTED);
        };
    }

    private Statement statement() {
        Token t = take();
        if (t.is("ALTER")) {
            return alter();
        }
        if (t.is("CREATE")) {
            if (accept("OR")) {
                expect("REPLACE");
                expect("VIEW");
                return createView(true);
            }
            if (accept("VIEW")) {
                return createView(false);
            }
            if (accept("UNIQUE")) {
                expect("INDEX");
                return createIndex(true);
            }
            if (accept("INDEX")) {
                return createIndex(false);
            }
            if (peek().is("TEMP") || peek().is("TEMPORARY")) {
                throw error(peek(), "temporary tables are not supported: every table is durable and seen by every"
                        + " session (create a table, and drop it when done)", SqlState.FEATURE_NOT_SUPPORTED);
            }
            // An unlogged table may lose its rows in a crash; LocusDB's keep them, which is never less than asked.
            accept("UNLOGGED");
            expect("TABLE");
            if (accept("GROUP")) {
                return new Statement.CreateGroup(identifier());
            }
            return createTable();
        }
        if (t.is("TRUNCATE")) {
            return truncate();
        }
        if (t.is("DROP")) {
            if (accept("INDEX")) {
                return dropIndex();
            }
            if (accept("VIEW")) {
                boolean ifExists = false;
                if (accept("IF")) {
                    expect("EXISTS");
                    ifExists = true;
                }
                return new Statement.DropView(identifier(), ifExists);
            }
            expect("TABLE");
            if (accept("GROUP")) {
                return new Statement.DropGroup(identifier());
            }
            boolean ifExists = false;
            if (accept("IF")) {
                expect("EXISTS");
                ifExists = true;
            }
            return new Statement.DropTable(identifier(), ifExists);
        }
        if (t.is("INSERT")) {
            return insert();
        }
        if (t.is("DELETE")) {
            return delete();
        }
        if (t.is("UPDATE")) {
            return update();
        }
        if (t.is("LOAD")) {
            return load();
        }
        return copy();
    }

    /**
     * The rest of {@code CREATE TABLE name [(a, b, ...)] AS query [WITH [NO] DATA]} when that is what follows the
     * name; else null, with nothing taken.
     */
    private Statement.CreateTableAs createTableAs(String name, boolean ifNotExists) {
        int start = next;
        List<String> names = new ArrayList<>();
        if (acceptSymbol("(")) {
            do {
                if (peek().kind != Kind.WORD && peek().kind != Kind.QUOTED) {
                    next = start;
                    return null;
                }
                names.add(identifier());
            } while (acceptSymbol(","));
            if (!acceptSymbol(")")) {
                next = start;
                return null;
            }
        }
        if (!accept("AS")) {
            next = start;
            return null;
        }
        Token first = peek();
        if (!(first.is("SELECT") || first.is("WITH") || first.is("VALUES") || first.is("TABLE")
                || first.kind == Kind.SYMBOL && first.text.equals("("))) {
            throw error(first, "expected a query (SELECT, WITH, VALUES or TABLE) after CREATE TABLE " + name + " AS");
        }
        int firstIndex = next;
        int depth = 0;
        int end = -1;
        boolean withData = true;
        while (peek().kind != Kind.END && !(peek().kind == Kind.SYMBOL && peek().text.equals(";"))) {
            // A query's own WITH comes first; WITH [NO] DATA after it ends the statement.
            if (depth == 0 && peek().is("WITH") && next > firstIndex
                    && (tokens.get(next + 1).is("DATA") || tokens.get(next + 1).is("NO")
                    && tokens.get(next + 2).is("DATA"))) {
                end = peek().offset;
                take();
                withData = !accept("NO");
                expect("DATA");
                break;
            }
            Token t = take();
            depth += t.kind == Kind.SYMBOL && t.text.equals("(") ? 1
                    : t.kind == Kind.SYMBOL && t.text.equals(")") ? -1 : 0;
        }
        String query = sql.substring(first.offset, end >= 0 ? end : endOffset(peek())).strip();
        return new Statement.CreateTableAs(name, List.copyOf(names), query, ifNotExists, withData);
    }

    /**
     * TRUNCATE [TABLE] [ONLY] t [, ...] [RESTART IDENTITY | CONTINUE IDENTITY] [CASCADE | RESTRICT]: LocusDB has
     * neither identity columns nor foreign keys, so the options change nothing.
     */
    private Statement truncate() {
        accept("TABLE");
        accept("ONLY");
        List<String> tables = new ArrayList<>();
        do {
            tables.add(identifier());
        } while (acceptSymbol(","));
        if (accept("RESTART") || accept("CONTINUE")) {
            expect("IDENTITY");
        }
        if (!accept("CASCADE")) {
            accept("RESTRICT");
        }
        return new Statement.Truncate(List.copyOf(tables));
    }

    /** {@code (a, b, ...)} if it comes next, else nothing. */
    private List<String> optionalColumnList() {
        List<String> columns = new ArrayList<>();
        if (acceptSymbol("(")) {
            do {
                columns.add(identifier());
            } while (acceptSymbol(","));
            expectSymbol(")");
        }
        return columns;
    }

    private Statement createIndex(boolean unique) {
        if (accept("CONCURRENTLY")) {
            // Building an index never blocks readers here; writers wait for it either way.
        }
        boolean ifNotExists = false;
        if (accept("IF")) {
            expect("NOT");
            expect("EXISTS");
            ifNotExists = true;
        }
        String name = peek().is("ON") ? null : identifier();
        if (ifNotExists && name == null) {
            throw error(peek(), "IF NOT EXISTS needs the index's name");
        }
        expect("ON");
        accept("ONLY");
        String table = identifier();
        if (accept("USING")) {
            Token method = take();
            if (!method.is("BTREE") && !method.is("HASH") && !method.is("ART")) {
                throw error(method, "index method " + method.text + " is not supported (btree and hash are; both"
                        + " build LocusDB's order-preserving index)", SqlState.FEATURE_NOT_SUPPORTED);
            }
        }
        expectSymbol("(");
        List<String> columns = new ArrayList<>();
        List<Boolean> descending = new ArrayList<>();
        do {
            Token at = peek();
            if (at.text.equals(")") || at.kind == Kind.END) {
                throw error(at, "expected the index's column, got " + describe(at));
            }
            if (at.kind != Kind.WORD && at.kind != Kind.QUOTED) {
                throw error(at, "indexes on expressions are not supported: name a column",
                        SqlState.FEATURE_NOT_SUPPORTED);
            }
            columns.add(identifier());
            if (peek().text.equals("(") || peek().kind == Kind.SYMBOL && !peek().text.equals(",")
                    && !peek().text.equals(")")) {
                throw error(at, "indexes on expressions are not supported: name a column",
                        SqlState.FEATURE_NOT_SUPPORTED);
            }
            if (accept("COLLATE")) {
                identifier();
            }
            boolean desc = false;
            if (accept("DESC")) {
                desc = true;
            } else {
                accept("ASC");
            }
            if (accept("NULLS")) {
                if (!accept("FIRST")) {
                    expect("LAST");
                }
            }
            descending.add(desc);
        } while (acceptSymbol(","));
        expectSymbol(")");
        if (peek().is("INCLUDE")) {
            throw error(peek(), "INCLUDE columns are not supported", SqlState.FEATURE_NOT_SUPPORTED);
        }
        if (peek().is("WHERE")) {
            throw error(peek(), "partial indexes (CREATE INDEX ... WHERE) are not supported",
                    SqlState.FEATURE_NOT_SUPPORTED);
        }
        return new Statement.CreateIndex(name, table, List.copyOf(columns), List.copyOf(descending), unique,
                ifNotExists);
    }

    private Statement dropIndex() {
        accept("CONCURRENTLY");
        boolean ifExists = false;
        if (accept("IF")) {
            expect("EXISTS");
            ifExists = true;
        }
        List<String> names = new ArrayList<>();
        do {
            names.add(identifier());
        } while (acceptSymbol(","));
        if (!accept("RESTRICT")) {
            accept("CASCADE");
        }
        return new Statement.DropIndex(List.copyOf(names), ifExists);
    }

    private Statement createView(boolean orReplace) {
        String name = identifier();
        List<String> columns = optionalColumnList();
        expect("AS");
        return new Statement.CreateView(name, columns, restOfStatement(), orReplace);
    }

    private Statement createTable() {
        boolean ifNotExists = false;
        if (accept("IF")) {
            expect("NOT");
            expect("EXISTS");
            ifNotExists = true;
        }
        String name = identifier();
        Statement.CreateTableAs fromQuery = createTableAs(name, ifNotExists);
        if (fromQuery != null) {
            return fromQuery;
        }
        expectSymbol("(");
        List<ColumnDef> columns = new ArrayList<>();
        List<String> primaryKey = new ArrayList<>();
        List<Statement.UniqueConstraint> unique = new ArrayList<>();
        List<Statement.Default> defaults = new ArrayList<>();
        do {
            if (peek().is("PRIMARY") || peek().is("CONSTRAINT") || peek().is("UNIQUE") && isTableConstraint()) {
                Token at = peek();
                String constraint = accept("CONSTRAINT") ? identifier() : null;
                if (accept("UNIQUE")) {
                    List<String> keyColumns = optionalColumnList();
                    if (keyColumns.isEmpty()) {
                        throw error(peek(), "expected the columns in parentheses after UNIQUE");
                    }
                    unique.add(new Statement.UniqueConstraint(constraint, List.copyOf(keyColumns)));
                    continue;
                }
                expect("PRIMARY");
                expect("KEY");
                if (!primaryKey.isEmpty()) {
                    throw error(at, "a table has one primary key; " + name + " names two");
                }
                primaryKey.addAll(optionalColumnList());
                if (primaryKey.isEmpty()) {
                    throw error(peek(), "expected the key's columns in parentheses after PRIMARY KEY");
                }
                continue;
            }
            if (peek().is("FOREIGN") || peek().is("CHECK")) {
                throw error(peek(), peek().text.toUpperCase(Locale.ROOT) + " table constraints are not supported"
                        + " (PRIMARY KEY and UNIQUE are)", SqlState.FEATURE_NOT_SUPPORTED);
            }
            String column = identifier();
            ColumnType type = type();
            boolean nullable = true;
            Statement.Default columnDefault = null;
            while (true) {
                String constraint = accept("CONSTRAINT") ? identifier() : null;
                if (accept("NOT")) {
                    expect("NULL");
                    nullable = false;
                } else if (accept("NULL")) {
                    nullable = true;
                } else if (peek().is("PRIMARY")) {
                    Token at = take();
                    expect("KEY");
                    if (!primaryKey.isEmpty()) {
                        throw error(at, "a table has one primary key; " + name + " names two");
                    }
                    primaryKey.add(column);
                    nullable = false;
                } else if (accept("UNIQUE")) {
                    unique.add(new Statement.UniqueConstraint(constraint, List.of(column)));
                } else if (accept("DEFAULT")) {
                    columnDefault = columnDefault();
                } else if (peek().is("REFERENCES") || peek().is("CHECK")) {
                    throw error(peek(), peek().text.toUpperCase(Locale.ROOT) + " column constraints are not"
                            + " supported", SqlState.FEATURE_NOT_SUPPORTED);
                } else if (constraint != null) {
                    throw error(peek(), "expected a constraint after CONSTRAINT " + constraint);
                } else {
                    break;
                }
            }
            columns.add(new ColumnDef(column, type, nullable));
            while (defaults.size() < columns.size() - 1) {
                defaults.add(null);
            }
            defaults.add(columnDefault);
        } while (acceptSymbol(","));
        expectSymbol(")");
        for (String key : primaryKey) {
            if (columns.stream().noneMatch(c -> c.name().equalsIgnoreCase(key))) {
                throw error(peek(), "the primary key column " + key + " is not a column of the table",
                        SqlState.UNDEFINED_COLUMN);
            }
        }
        for (Statement.UniqueConstraint u : unique) {
            for (String key : u.columns()) {
                if (columns.stream().noneMatch(c -> c.name().equalsIgnoreCase(key))) {
                    throw error(peek(), "the unique column " + key + " is not a column of the table",
                            SqlState.UNDEFINED_COLUMN);
                }
            }
        }
        PartitionSpec spec = PartitionSpec.none();
        String group = null;
        List<Object> rangeBounds = new ArrayList<>();
        while (peek().kind != Kind.END && !peek().text.equals(";")) {
            if (accept("PARTITION")) {
                expect("BY");
                Token how = take();
                String key = null;
                if (how.is("HASH") || how.is("RANGE")) {
                    expectSymbol("(");
                    key = identifier();
                    expectSymbol(")");
                } else if (!how.is("ROUNDROBIN") && !how.is("ROUND_ROBIN")) {
                    throw error(how, "expected HASH(column), RANGE(column) or ROUND_ROBIN after PARTITION BY");
                }
                int parts = 0;
                if (accept("PARTITIONS")) {
                    parts = positiveInt("PARTITIONS");
                }
                if (how.is("RANGE") && accept("BOUNDS")) {
                    expectSymbol("(");
                    do {
                        Token at = peek();
                        Object bound = value();
                        if (bound == null) {
                            throw error(at, "a RANGE bound cannot be NULL (NULL keys go to the first part)");
                        }
                        rangeBounds.add(bound);
                    } while (acceptSymbol(","));
                    expectSymbol(")");
                    if (parts == 0) {
                        parts = rangeBounds.size() + 1;
                    } else if (parts != rangeBounds.size() + 1) {
                        throw error(how, parts + " RANGE partitions need " + (parts - 1) + " bounds (the lowest key"
                                + " of every part but the first), not " + rangeBounds.size());
                    }
                }
                if (parts == 0) {
                    throw error(peek(), how.is("RANGE") ? "expected PARTITIONS n or BOUNDS (v1, ...) after"
                            + " PARTITION BY RANGE(column)" : "expected PARTITIONS n");
                }
                String column = key;
                if (column != null && columns.stream().noneMatch(c -> c.name().equalsIgnoreCase(column))) {
                    throw error(how, "the partition column " + column + " is not a column of the table",
                            SqlState.UNDEFINED_COLUMN);
                }
                spec = how.is("HASH") ? new PartitionSpec.Hash(column, parts)
                        : how.is("RANGE") ? new PartitionSpec.Range(column, parts)
                        : new PartitionSpec.RoundRobin(parts);
            } else if (accept("PARTITIONS")) {
                spec = new PartitionSpec.RoundRobin(positiveInt("PARTITIONS"));
            } else if (accept("IN")) {
                expect("GROUP");
                group = identifier();
            } else {
                throw error(peek(), "unexpected '" + peek().text + "': expected PARTITION BY, PARTITIONS or IN"
                        + " GROUP");
            }
        }
        return new Statement.CreateTable(name, columns, spec, group, ifNotExists, List.copyOf(rangeBounds),
                List.copyOf(primaryKey), List.copyOf(unique), defaults.stream().allMatch(d -> d == null)
                ? List.of() : Collections.unmodifiableList(defaults));
    }

    /**
     * What follows DEFAULT: a literal, or the statement's time (CURRENT_TIMESTAMP, LOCALTIMESTAMP, now(),
     * CURRENT_DATE); other expressions are refused.
     */
    private Statement.Default columnDefault() {
        Token at = peek();
        String onlyThese = "DEFAULT takes a literal (a number, string, TRUE/FALSE, DATE, TIMESTAMP or NULL) or"
                + " CURRENT_TIMESTAMP, now() or CURRENT_DATE, not another expression";
        Statement.Default result;
        if (accept("CURRENT_TIMESTAMP") || accept("LOCALTIMESTAMP")) {
            if (acceptSymbol("(")) {
                nonNegativeInt("precision");
                expectSymbol(")");
            }
            result = new Statement.TimeDefault(false);
        } else if (accept("CURRENT_DATE")) {
            result = new Statement.TimeDefault(true);
        } else if (peek().is("NOW") && next + 1 < tokens.size() && tokens.get(next + 1).text.equals("(")) {
            take();
            expectSymbol("(");
            expectSymbol(")");
            result = new Statement.TimeDefault(false);
        } else {
            try {
                result = new Statement.LiteralDefault(value());
            } catch (LocusSqlException notLiteral) {
                throw error(at, onlyThese, SqlState.FEATURE_NOT_SUPPORTED);
            }
        }
        Token after = peek();
        boolean ends = after.kind == Kind.END || after.kind == Kind.SYMBOL && (after.text.equals(",")
                || after.text.equals(";") || after.text.equals(")"));
        if (!ends && !(after.kind == Kind.WORD && List.of("NOT", "NULL", "PRIMARY", "UNIQUE", "CONSTRAINT", "DEFAULT",
                "REFERENCES", "CHECK").stream().anyMatch(after::is))) {
            throw error(at, onlyThese, SqlState.FEATURE_NOT_SUPPORTED);
        }
        return result;
    }

    /** Whether the UNIQUE that comes next starts a table constraint, {@code UNIQUE (a, b)}, not a column named so. */
    private boolean isTableConstraint() {
        return next + 1 < tokens.size() && tokens.get(next + 1).text.equals("(");
    }

    private ColumnType type() {
        Token t = take();
        if (t.kind != Kind.WORD) {
            throw error(t, "expected a column type, got '" + t.text + "'");
        }
        String name = t.text.toUpperCase(Locale.ROOT);
        try {
            return switch (name) {
                case "BOOLEAN", "BOOL" -> ColumnType.BOOLEAN;
                case "INTEGER", "INT", "SMALLINT", "TINYINT", "INT4" -> ColumnType.INTEGER;
                case "BIGINT", "INT8" -> ColumnType.BIGINT;
                case "DOUBLE", "FLOAT", "REAL", "FLOAT8" -> {
                    accept("PRECISION");
                    yield ColumnType.DOUBLE;
                }
                case "DATE" -> ColumnType.DATE;
                case "TIMESTAMP", "DATETIME" -> {
                    microsecondPrecision(t, "TIMESTAMP");
                    if (accept("WITH")) {
                        expect("TIME");
                        expect("ZONE");
                        yield ColumnType.TIMESTAMP_TZ;
                    }
                    if (accept("WITHOUT")) {
                        expect("TIME");
                        expect("ZONE");
                    }
                    yield ColumnType.TIMESTAMP;
                }
                case "TIMESTAMPTZ" -> {
                    microsecondPrecision(t, "TIMESTAMPTZ");
                    yield ColumnType.TIMESTAMP_TZ;
                }
                case "DECIMAL", "NUMERIC" -> {
                    int precision = 18;
                    int scale = 0;
                    if (acceptSymbol("(")) {
                        precision = positiveInt("precision");
                        if (acceptSymbol(",")) {
                            scale = nonNegativeInt("scale");
                        }
                        expectSymbol(")");
                    }
                    yield ColumnType.decimal(precision, scale);
                }
                case "VARCHAR", "TEXT", "STRING" -> {
                    if (name.equals("VARCHAR") && acceptSymbol("(")) {
                        int length = positiveInt("length");
                        expectSymbol(")");
                        yield ColumnType.varchar(length);
                    }
                    yield ColumnType.VARCHAR;
                }
                case "CHAR", "CHARACTER" -> {
                    if (accept("VARYING")) {
                        if (acceptSymbol("(")) {
                            int length = positiveInt("length");
                            expectSymbol(")");
                            yield ColumnType.varchar(length);
                        }
                        yield ColumnType.VARCHAR;
                    }
                    int length = 1;
                    if (acceptSymbol("(")) {
                        length = positiveInt("length");
                        expectSymbol(")");
                    }
                    yield ColumnType.character(length);
                }
                default -> throw error(t, "unknown column type " + t.text + " (LocusDB has BOOLEAN, INTEGER,"
                        + " BIGINT, DECIMAL(p,s) with p ≤ 18, DOUBLE, DATE, TIMESTAMP, TIMESTAMP WITH TIME ZONE, CHAR(n), VARCHAR[(n)])",
                        SqlState.FEATURE_NOT_SUPPORTED);
            };
        } catch (IllegalArgumentException e) {
            throw error(t, e.getMessage(), SqlState.FEATURE_NOT_SUPPORTED);
        }
    }

    private Statement insert() {
        expect("INTO");
        String table = identifier();
        String alias = null;
        if (accept("AS")) {
            alias = identifier();
        }
        List<String> columns = optionalColumnList();
        if (peek().is("SELECT") || peek().is("WITH")) {
            Token first = peek();
            int depth = 0;
            while (peek().kind != Kind.END && !(peek().kind == Kind.SYMBOL && peek().text.equals(";"))
                    && !(depth == 0 && peek().is("ON") && tokens.get(next + 1).is("CONFLICT"))) {
                Token t = take();
                depth += t.kind == Kind.SYMBOL && t.text.equals("(") ? 1
                        : t.kind == Kind.SYMBOL && t.text.equals(")") ? -1 : 0;
            }
            String query = sql.substring(first.offset, endOffset(peek())).strip();
            return new Statement.InsertSelect(table, columns, query, onConflict(table, alias));
        }
        Token values = peek();
        expect("VALUES");
        int start = next;
        try {
            List<List<Object>> rows = new ArrayList<>();
            int parameters = 0;
            do {
                expectSymbol("(");
                List<Object> row = new ArrayList<>();
                do {
                    if (acceptSymbol("?")) {
                        row.add(new Statement.Parameter(parameters++));
                    } else {
                        row.add(value());
                    }
                } while (acceptSymbol(","));
                expectSymbol(")");
                rows.add(row);
            } while (acceptSymbol(","));
            return new Statement.Insert(table, columns, rows, parameters, onConflict(table, alias));
        } catch (LocusSqlException notLiterals) {
            // Values that are expressions (now(), 'a' || 'b', DATE '2024-01-01' + 7): the VALUES list is a query,
            // and the statement an INSERT ... SELECT of it. Parameters stay the literal path's.
            next = start;
            int depth = 0;
            while (peek().kind != Kind.END && !(peek().kind == Kind.SYMBOL && peek().text.equals(";"))
                    && !(depth == 0 && peek().is("ON") && tokens.get(next + 1).is("CONFLICT"))) {
                Token t = take();
                if (t.kind == Kind.SYMBOL && t.text.equals("?")) {
                    throw error(t, "INSERT ... VALUES with both parameters (?) and expressions other than literals"
                            + " is not supported yet: make the parameters literals, or the expressions parameters",
                            SqlState.FEATURE_NOT_SUPPORTED);
                }
                depth += t.kind == Kind.SYMBOL && t.text.equals("(") ? 1
                        : t.kind == Kind.SYMBOL && t.text.equals(")") ? -1 : 0;
            }
            String query = sql.substring(values.offset, endOffset(peek())).strip();
            return new Statement.InsertSelect(table, columns, query, onConflict(table, alias));
        }
    }

    /**
     * {@code ON CONFLICT [(columns) | ON CONSTRAINT name] DO NOTHING | DO UPDATE SET c = e, ... [WHERE cond]}, or
     * null when the statement ends here. Expressions keep their text, with {@code EXCLUDED.c} written as the
     * column {@link Statement.OnConflict#EXCLUDED_PREFIX}{@code c} of the row the upsert evaluates them on.
     */
    private Statement.OnConflict onConflict(String table, String alias) {
        if (!accept("ON")) {
            return null;
        }
        expect("CONFLICT");
        List<String> target = List.of();
        String constraint = null;
        if (peek().kind == Kind.SYMBOL && peek().text.equals("(")) {
            target = optionalColumnList();
        } else if (accept("ON")) {
            expect("CONSTRAINT");
            constraint = identifier();
        }
        expect("DO");
        if (accept("NOTHING")) {
            return new Statement.OnConflict(target, constraint, alias, true, List.of(), List.of(), null);
        }
        Token update = peek();
        expect("UPDATE");
        if (target.isEmpty() && constraint == null) {
            throw error(update, "ON CONFLICT DO UPDATE needs the conflict's columns, e.g. ON CONFLICT (key)",
                    SqlState.SYNTAX_ERROR);
        }
        expect("SET");
        List<String> columns = new ArrayList<>();
        List<String> expressions = new ArrayList<>();
        assignments(columns, expressions, true);
        String where = null;
        if (accept("WHERE")) {
            int from = next;
            restOfStatement();
            where = excludedRewritten(from, next);
        }
        return new Statement.OnConflict(target, constraint, alias, false, columns, expressions, where);
    }

    /**
     * {@code c = expression, ...} of a SET list into {@code columns} and {@code expressions} (the expressions' text;
     * with {@code excluded}, {@code EXCLUDED.c} rewritten as {@link #excludedRewritten} does).
     */
    private void assignments(List<String> columns, List<String> expressions, boolean excluded) {
        do {
            if (acceptSymbol("(")) {
                rowAssignment(columns, expressions, excluded);
                continue;
            }
            columns.add(identifier());
            expectSymbol("=");
            int from = next;
            String text = expressionText(false);
            expressions.add(excluded ? excludedRewritten(from, next) : text);
        } while (acceptSymbol(","));
    }

    /**
     * {@code (a, b, ...) = [ROW] (x, y, ...)} after its opening bracket: each column its expression, as
     * {@code a = x, b = y} would. The sub-select form {@code = (SELECT ...)} is refused.
     */
    private void rowAssignment(List<String> columns, List<String> expressions, boolean excluded) {
        List<String> names = new ArrayList<>();
        do {
            names.add(identifier());
        } while (acceptSymbol(","));
        expectSymbol(")");
        expectSymbol("=");
        accept("ROW");
        Token open = peek();
        expectSymbol("(");
        if (peek().is("SELECT") || peek().is("WITH") || peek().is("VALUES")) {
            throw error(peek(), "SET (columns) = (SELECT ...) is not supported: set each column to a subquery of its"
                    + " own", SqlState.FEATURE_NOT_SUPPORTED);
        }
        List<String> values = new ArrayList<>();
        do {
            int from = next;
            String text = expressionText(true);
            values.add(excluded ? excludedRewritten(from, next) : text);
        } while (acceptSymbol(","));
        expectSymbol(")");
        if (values.size() != names.size()) {
            throw error(open, names.size() + " column(s) are assigned " + values.size() + " value(s)");
        }
        columns.addAll(names);
        expressions.addAll(values);
    }

    /**
     * The text of tokens {@code from..to-1} with each {@code EXCLUDED.c} replaced by the quoted column
     * {@code locus_excluded_c}; a {@code ?} there is refused (the expressions run as a query of their own).
     */
    private String excludedRewritten(int from, int to) {
        StringBuilder text = new StringBuilder();
        int position = tokens.get(from).offset;
        for (int i = from; i < to; i++) {
            Token t = tokens.get(i);
            if (t.kind == Kind.SYMBOL && t.text.equals("?")) {
                throw error(t, "parameters in ON CONFLICT DO UPDATE are not supported: use EXCLUDED.column for the"
                        + " proposed row's values", SqlState.FEATURE_NOT_SUPPORTED);
            }
            if (t.is("EXCLUDED") && i + 2 < to && tokens.get(i + 1).kind == Kind.SYMBOL
                    && tokens.get(i + 1).text.equals(".")
                    && (tokens.get(i + 2).kind == Kind.WORD || tokens.get(i + 2).kind == Kind.QUOTED)) {
                Token column = tokens.get(i + 2);
                String name = column.kind == Kind.WORD ? column.text.toLowerCase(Locale.ROOT) : column.text;
                text.append(sql, position, t.offset).append('"').append(Statement.OnConflict.EXCLUDED_PREFIX)
                        .append(name.replace("\"", "\"\"")).append('"');
                position = column.end;
                i += 2;
            }
        }
        text.append(sql, position, tokens.get(to - 1).end);
        return text.toString().strip();
    }

    /**
     * DELETE FROM [ONLY] t [[AS] alias] [USING from-list] [WHERE condition]. A row goes when some combination of the
     * USING rows meets the condition, once however many do: the condition becomes an EXISTS over the USING list,
     * which keeps the query's rows those of the table alone.
     */
    private Statement delete() {
        expect("FROM");
        accept("ONLY");
        String table = identifier();
        String alias = alias();
        String using = accept("USING") ? fromListText("the tables to delete by after USING") : null;
        String condition = accept("WHERE") ? restOfStatement() : null;
        if (using != null) {
            condition = "EXISTS (SELECT 1 FROM " + using + (condition == null ? "" : " WHERE " + condition) + "\n)";
        }
        return new Statement.Delete(table, alias, condition, null);
    }

    /** The text of a FROM list (DELETE's USING, UPDATE's FROM), up to WHERE at bracket depth 0 or the end. */
    private String fromListText(String expected) {
        Token first = peek();
        int depth = 0;
        while (peek().kind != Kind.END && !(peek().kind == Kind.SYMBOL && peek().text.equals(";"))
                && !(depth == 0 && peek().is("WHERE"))) {
            Token u = take();
            depth += u.kind == Kind.SYMBOL && u.text.equals("(") ? 1
                    : u.kind == Kind.SYMBOL && u.text.equals(")") ? -1 : 0;
        }
        if (peek() == first) {
            throw error(first, "expected " + expected);
        }
        return textSince(first);
    }

    /** {@code [AS] alias} after a DELETE's or UPDATE's table, or null. */
    private String alias() {
        if (accept("AS")) {
            return identifier();
        }
        Token t = peek();
        if ((t.kind == Kind.WORD || t.kind == Kind.QUOTED) && !t.is("USING") && !t.is("WHERE") && !t.is("SET")) {
            return identifier();
        }
        return null;
    }

    private Statement update() {
        String table = identifier();
        String alias = alias();
        expect("SET");
        List<String> columns = new ArrayList<>();
        List<String> expressions = new ArrayList<>();
        assignments(columns, expressions, false);
        String from = accept("FROM") ? fromListText("the tables to update from after FROM") : null;
        String condition = accept("WHERE") ? restOfStatement() : null;
        return new Statement.Update(table, alias, columns, expressions, from, condition, null);
    }

    /**
     * The text of one expression, up to a comma, WHERE, FROM or the end at bracket depth 0; Calcite parses it later,
     * as part of a query.
     */
    private String expressionText(boolean inBrackets) {
        Token first = peek();
        int depth = 0;
        while (true) {
            Token t = peek();
            // A FROM outside brackets ends it too (UPDATE ... FROM); EXTRACT(... FROM ...) is inside brackets. In a
            // bracketed list, the list's closing bracket ends it, and FROM belongs to the expression (IS DISTINCT
            // FROM).
            if (t.kind == Kind.END || depth == 0 && (t.kind == Kind.SYMBOL && (t.text.equals(",")
                    || t.text.equals(";") || inBrackets && t.text.equals(")"))
                    || !inBrackets && (t.is("WHERE") || t.is("FROM")))) {
                break;
            }
            if (t.kind == Kind.SYMBOL && t.text.equals("(")) {
                depth++;
            } else if (t.kind == Kind.SYMBOL && t.text.equals(")")) {
                depth--;
            }
            take();
        }
        if (peek() == first) {
            throw error(first, "expected an expression");
        }
        return textSince(first);
    }

    /** The text from the next token to the end of the statement (without a final ';'); the tokens are consumed. */
    private String restOfStatement() {
        Token first = peek();
        if (first.kind == Kind.END || first.text.equals(";")) {
            throw error(first, "expected more after '" + sql.substring(0, first.offset).strip() + "'");
        }
        while (peek().kind != Kind.END && !(peek().kind == Kind.SYMBOL && peek().text.equals(";")
                && tokens.get(next + 1).kind == Kind.END)) {
            take();
        }
        return textSince(first);
    }

    /**
     * The text from {@code first} to the last token taken, without what follows it: a comment there would swallow
     * whatever the runner puts after the text (a WHERE after an UPDATE's FROM list, the bracket around an expression).
     */
    private String textSince(Token first) {
        return sql.substring(first.offset, tokens.get(next - 1).end);
    }

    private int endOffset(Token next) {
        return next.kind == Kind.END ? sql.length() : next.offset;
    }

    private Object value() {
        Token t = take();
        boolean negative = false;
        if (t.kind == Kind.SYMBOL && (t.text.equals("-") || t.text.equals("+"))) {
            negative = t.text.equals("-");
            t = take();
            if (t.kind != Kind.NUMBER) {
                throw error(t, "expected a number after the sign");
            }
        }
        return switch (t.kind) {
            case NUMBER -> {
                String text = (negative ? "-" : "") + t.text;
                if (!text.matches("-?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?")) {
                    throw error(t, "malformed number '" + t.text + "'");
                }
                if (text.contains("e") || text.contains("E")) {
                    yield Double.parseDouble(text);
                }
                BigDecimal d = new BigDecimal(text);
                yield d.scale() <= 0 && d.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0
                        ? (Object) d.longValueExact() : d;
            }
            case STRING -> t.text;
            case WORD -> {
                if (t.is("NULL")) {
                    yield null;
                }
                if (t.is("TRUE") || t.is("FALSE")) {
                    yield t.is("TRUE");
                }
                if (t.is("DATE")) {
                    Token s = take();
                    if (s.kind != Kind.STRING) {
                        throw error(s, "expected 'yyyy-mm-dd' after DATE");
                    }
                    yield new Statement.DateValue(s.text);
                }
                if (t.is("TIMESTAMP") || t.is("TIMESTAMPTZ")) {
                    if (t.is("TIMESTAMP") && accept("WITH")) {
                        expect("TIME");
                        expect("ZONE");
                    } else if (t.is("TIMESTAMP") && accept("WITHOUT")) {
                        expect("TIME");
                        expect("ZONE");
                    }
                    Token s = take();
                    if (s.kind != Kind.STRING) {
                        throw error(s, "expected 'yyyy-mm-dd hh:mm:ss' after TIMESTAMP");
                    }
                    yield new Statement.TimestampValue(s.text);
                }
                throw error(t, "expected a literal value (number, 'string', DATE 'yyyy-mm-dd', TIMESTAMP '...', TRUE, FALSE or"
                        + " NULL), got " + t.text, SqlState.FEATURE_NOT_SUPPORTED);
            }
            default -> throw error(t, "expected a literal value, got '" + t.text + "'");
        };
    }

    private Statement load() {
        expect("TPCH");
        double sf = 1;
        int parts = 1;
        int slice = 0;
        int slices = 1;
        while (peek().kind != Kind.END && !peek().text.equals(";")) {
            if (accept("SCALE") || accept("SF")) {
                accept("FACTOR");
                Token n = take();
                if (n.kind != Kind.NUMBER) {
                    throw error(n, "expected the scale factor");
                }
                sf = Double.parseDouble(n.text);
                if (!(sf > 0)) {
                    throw error(n, "the scale factor must be positive");
                }
            } else if (accept("PARTS") || accept("PARTITIONS")) {
                parts = positiveInt("PARTS");
            } else if (peek().is("SLICE")) {
                Token at = take();
                Token n = take();
                if (n.kind != Kind.NUMBER || !n.text.matches("\\d{1,9}")) {
                    throw error(n, "expected the slice's number after SLICE (SLICE i OF k, i from 0)");
                }
                expect("OF");
                slices = positiveInt("OF");
                slice = Integer.parseInt(n.text);
                if (slice >= slices) {
                    throw error(at, "SLICE " + slice + " OF " + slices + ": slices are numbered from 0 to "
                            + (slices - 1));
                }
            } else {
                throw error(peek(), "unexpected '" + peek().text + "': expected SCALE sf, PARTS n or SLICE i OF k");
            }
        }
        return new Statement.LoadTpch(sf, parts, slice, slices);
    }

    private Statement copy() {
        String table = identifier();
        expect("FROM");
        Token file = take();
        if (file.kind != Kind.STRING) {
            throw error(file, "expected the file name as a 'quoted string'");
        }
        String format = null;
        Boolean header = null;
        if (accept("WITH") || peek().text.equals("(")) {
            expectSymbol("(");
            do {
                Token option = take();
                if (option.is("FORMAT")) {
                    Token f = take();
                    format = f.text.toLowerCase(Locale.ROOT);
                    if (!format.equals("csv") && !format.equals("tbl")) {
                        throw error(f, "FORMAT must be csv or tbl");
                    }
                } else if (option.is("HEADER")) {
                    Token h = peek();
                    header = true;
                    if (h.is("TRUE") || h.is("FALSE")) {
                        header = take().is("TRUE");
                    }
                } else {
                    throw error(option, "unknown COPY option '" + option.text + "' (FORMAT, HEADER)");
                }
            } while (acceptSymbol(","));
            expectSymbol(")");
        }
        return new Statement.CopyFrom(table, file.text, format, header);
    }

    // ---- tokens ----

    private Token peek() {
        return tokens.get(next);
    }

    private Token take() {
        Token t = tokens.get(next);
        if (t.kind != Kind.END) {
            next++;
        }
        return t;
    }

    private boolean accept(String keyword) {
        if (peek().is(keyword)) {
            next++;
            return true;
        }
        return false;
    }

    private boolean acceptSymbol(String symbol) {
        if (peek().kind == Kind.SYMBOL && peek().text.equals(symbol)) {
            next++;
            return true;
        }
        return false;
    }

    private void expect(String keyword) {
        Token t = take();
        if (!t.is(keyword)) {
            throw error(t, "expected " + keyword + ", got " + describe(t));
        }
    }

    private void expectSymbol(String symbol) {
        Token t = take();
        if (t.kind != Kind.SYMBOL || !t.text.equals(symbol)) {
            throw error(t, "expected '" + symbol + "', got " + describe(t));
        }
    }

    private String identifier() {
        Token t = take();
        if (t.kind == Kind.QUOTED) {
            return t.text;
        }
        if (t.kind != Kind.WORD) {
            throw error(t, "expected a name, got " + describe(t));
        }
        return t.text.toLowerCase(Locale.ROOT);
    }

    /**
     * ALTER TABLE [GROUP] name MOVE [PART k] TO NODE n | PARTITION INTO n PARTS | MERGE PARTS [TO NODE n]: the
     * placement operations the placer uses, for the operator.
     */
    private Statement alter() {
        expect("TABLE");
        boolean group = accept("GROUP");
        boolean ifExists = !group && peek().is("IF") && tokens.get(next + 1).is("EXISTS");
        if (ifExists) {
            expect("IF");
            expect("EXISTS");
        }
        String name = identifier();
        if (!group && (peek().is("ADD") || peek().is("DROP") || peek().is("RENAME") || peek().is("ALTER"))) {
            return alterDefinition(name, ifExists);
        }
        if (ifExists) {
            throw error(peek(), "expected ADD, DROP, ALTER or RENAME after ALTER TABLE IF EXISTS " + name);
        }
        Token verb = take();
        if (verb.is("MOVE")) {
            int part = -1;
            if (accept("PART")) {
                part = nonNegativeInt("PART");
            }
            expect("TO");
            expect("NODE");
            return new Statement.AlterPlacement(name, group, Statement.AlterPlacement.Action.MOVE, part,
                    nonNegativeInt("NODE"));
        }
        if (verb.is("PARTITION")) {
            expect("INTO");
            int parts = positiveInt("PARTITION INTO");
            expect("PARTS");
            return new Statement.AlterPlacement(name, group, Statement.AlterPlacement.Action.PARTITION, parts, -1);
        }
        if (verb.is("MERGE")) {
            expect("PARTS");
            int node = -1;
            if (accept("TO")) {
                expect("NODE");
                node = nonNegativeInt("NODE");
            }
            return new Statement.AlterPlacement(name, group, Statement.AlterPlacement.Action.MERGE, -1, node);
        }
        throw error(verb, "expected ADD, DROP or RENAME [COLUMN], RENAME TO, MOVE [PART k] TO NODE n, PARTITION"
                + " INTO n PARTS or MERGE PARTS [TO NODE n] after ALTER TABLE " + name,
                SqlState.FEATURE_NOT_SUPPORTED);
    }

    /**
     * ADD [COLUMN] [IF NOT EXISTS] name type [NOT NULL | NULL | DEFAULT literal]..., DROP [COLUMN] [IF EXISTS]
     * name [RESTRICT] and ALTER [COLUMN] name SET/DROP DEFAULT or NOT NULL, comma-separated; or one RENAME [COLUMN]
     * a TO b; or one RENAME TO name.
     */
    private Statement alterDefinition(String table, boolean ifExists) {
        if (accept("RENAME")) {
            if (accept("TO")) {
                return new Statement.AlterTable(table, ifExists, List.of(new Statement.RenameTable(identifier())));
            }
            if (peek().is("CONSTRAINT")) {
                throw error(peek(), "ALTER TABLE ... RENAME CONSTRAINT is not supported",
                        SqlState.FEATURE_NOT_SUPPORTED);
            }
            accept("COLUMN");
            String from = identifier();
            expect("TO");
            return new Statement.AlterTable(table, ifExists, List.of(new Statement.RenameColumn(from,
                    identifier())));
        }
        List<Statement.AlterAction> actions = new ArrayList<>();
        do {
            Token verb = take();
            if (verb.is("ADD")) {
                if (peek().is("CONSTRAINT") || peek().is("PRIMARY") || peek().is("UNIQUE") || peek().is("FOREIGN")
                        || peek().is("CHECK")) {
                    throw error(peek(), "ALTER TABLE ... ADD " + peek().text.toUpperCase(Locale.ROOT) + " is not"
                            + " supported (CREATE UNIQUE INDEX adds a unique key)", SqlState.FEATURE_NOT_SUPPORTED);
                }
                accept("COLUMN");
                boolean ifNotExists = peek().is("IF") && tokens.get(next + 1).is("NOT");
                if (ifNotExists) {
                    expect("IF");
                    expect("NOT");
                    expect("EXISTS");
                }
                String column = identifier();
                ColumnType type = type();
                boolean nullable = true;
                Statement.Default defaultValue = null;
                while (true) {
                    if (accept("NOT")) {
                        expect("NULL");
                        nullable = false;
                    } else if (accept("NULL")) {
                        nullable = true;
                    } else if (accept("DEFAULT")) {
                        defaultValue = columnDefault();
                    } else if (peek().is("PRIMARY") || peek().is("UNIQUE") || peek().is("REFERENCES")
                            || peek().is("CHECK") || peek().is("CONSTRAINT")) {
                        throw error(peek(), peek().text.toUpperCase(Locale.ROOT) + " in ALTER TABLE ... ADD COLUMN"
                                + " is not supported", SqlState.FEATURE_NOT_SUPPORTED);
                    } else {
                        break;
                    }
                }
                actions.add(new Statement.AddColumn(new ColumnDef(column, type, nullable), defaultValue,
                        ifNotExists));
            } else if (verb.is("DROP")) {
                if (peek().is("CONSTRAINT")) {
                    throw error(peek(), "ALTER TABLE ... DROP CONSTRAINT is not supported (DROP INDEX drops a"
                            + " unique index)", SqlState.FEATURE_NOT_SUPPORTED);
                }
                accept("COLUMN");
                boolean columnIfExists = peek().is("IF") && tokens.get(next + 1).is("EXISTS");
                if (columnIfExists) {
                    expect("IF");
                    expect("EXISTS");
                }
                String column = identifier();
                if (peek().is("CASCADE")) {
                    throw error(peek(), "DROP COLUMN ... CASCADE is not supported: drop what depends on the column"
                            + " first", SqlState.FEATURE_NOT_SUPPORTED);
                }
                accept("RESTRICT");
                actions.add(new Statement.DropColumn(column, columnIfExists));
            } else if (verb.is("ALTER")) {
                actions.add(alterColumn());
            } else {
                throw error(verb, "expected ADD, DROP or ALTER in the list of ALTER TABLE " + table + " (RENAME"
                        + " stands alone)");
            }
        } while (acceptSymbol(","));
        return new Statement.AlterTable(table, ifExists, List.copyOf(actions));
    }

    /** After ALTER: [COLUMN] name SET DEFAULT ... | DROP DEFAULT | SET NOT NULL | DROP NOT NULL. */
    private Statement.AlterAction alterColumn() {
        accept("COLUMN");
        String column = identifier();
        Token verb = take();
        if (verb.is("SET") && accept("DEFAULT")) {
            return new Statement.AlterColumn(column, Statement.AlterColumn.ColumnChange.SET_DEFAULT,
                    columnDefault());
        }
        if (verb.is("SET") && accept("NOT")) {
            expect("NULL");
            return new Statement.AlterColumn(column, Statement.AlterColumn.ColumnChange.SET_NOT_NULL, null);
        }
        if (verb.is("DROP") && accept("DEFAULT")) {
            return new Statement.AlterColumn(column, Statement.AlterColumn.ColumnChange.DROP_DEFAULT, null);
        }
        if (verb.is("DROP") && accept("NOT")) {
            expect("NULL");
            return new Statement.AlterColumn(column, Statement.AlterColumn.ColumnChange.DROP_NOT_NULL, null);
        }
        if (verb.is("TYPE") || verb.is("SET") && peek().is("DATA")) {
            throw error(verb, "ALTER COLUMN ... TYPE is not supported: add a column of the new type, UPDATE it from"
                    + " the old one, drop the old one and rename the new", SqlState.FEATURE_NOT_SUPPORTED);
        }
        throw error(verb, "expected SET DEFAULT, DROP DEFAULT, SET NOT NULL or DROP NOT NULL after ALTER COLUMN "
                + column, SqlState.FEATURE_NOT_SUPPORTED);
    }

    /** An optional {@code (6)} after a timestamp type: LocusDB keeps microseconds, and no other precision. */
    private void microsecondPrecision(Token type, String name) {
        if (acceptSymbol("(")) {
            int precision = nonNegativeInt("precision");
            expectSymbol(")");
            if (precision != 6) {
                throw error(type, name + "(" + precision + "): LocusDB keeps timestamps to the microsecond, " + name
                        + "(6)", SqlState.FEATURE_NOT_SUPPORTED);
            }
        }
    }

    private int positiveInt(String what) {
        int n = nonNegativeInt(what);
        if (n < 1) {
            throw error(tokens.get(next - 1), what + " must be at least 1");
        }
        return n;
    }

    private int nonNegativeInt(String what) {
        Token t = take();
        try {
            if (t.kind != Kind.NUMBER) {
                throw new NumberFormatException();
            }
            return Integer.parseInt(t.text);
        } catch (NumberFormatException e) {
            throw error(t, "expected a whole number for " + what + ", got " + describe(t));
        }
    }

    private static String describe(Token t) {
        return t.kind == Kind.END ? "the end of the statement" : "'" + t.text + "'";
    }

    private LocusSqlException error(Token t, String message) {
        return error(t, message, SqlState.SYNTAX_ERROR);
    }

    private LocusSqlException error(Token t, String message, SqlState state) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < Math.min(t.offset, sql.length()); i++) {
            if (sql.charAt(i) == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        return new LocusSqlException(state, message, line, column, null);
    }

    private List<Token> tokenize(String s) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '*') {
                int end = s.indexOf("*/", i + 2);
                if (end < 0) {
                    throw error(new Token(Kind.END, "", i, i), "unterminated /* comment");
                }
                i = end + 2;
            } else if (c == '-' && i + 1 < s.length() && s.charAt(i + 1) == '-') {
                while (i < s.length() && s.charAt(i) != '\n') {
                    i++;
                }
            } else if (Character.isLetter(c) || c == '_') {
                int start = i;
                while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
                    i++;
                }
                out.add(new Token(Kind.WORD, s.substring(start, i), start, i));
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < s.length() && Character.isDigit(s.charAt(i + 1)))) {
                int start = i;
                while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                    i++;
                }
                if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                    i++;
                    if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                        i++;
                    }
                    while (i < s.length() && Character.isDigit(s.charAt(i))) {
                        i++;
                    }
                }
                out.add(new Token(Kind.NUMBER, s.substring(start, i), start, i));
            } else if (c == '\'' || c == '"') {
                int start = i++;
                StringBuilder text = new StringBuilder();
                while (true) {
                    if (i >= s.length()) {
                        throw error(new Token(Kind.END, "", start, start), "unterminated " + (c == '\'' ? "string"
                                : "quoted name"));
                    }
                    char d = s.charAt(i++);
                    if (d == c) {
                        if (i < s.length() && s.charAt(i) == c) {
                            text.append(c);
                            i++;
                        } else {
                            break;
                        }
                    } else {
                        text.append(d);
                    }
                }
                out.add(new Token(c == '\'' ? Kind.STRING : Kind.QUOTED, text.toString(), start, i));
            } else {
                out.add(new Token(Kind.SYMBOL, String.valueOf(c), i, i + 1));
                i++;
            }
        }
        out.add(new Token(Kind.END, "", s.length(), s.length()));
        return out;
    }
}
