package io.locusdb.core.sql;

import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.PartitionSpec;
import java.util.List;

/** The statements LocusDB runs besides queries (queries go through Calcite). */
public sealed interface Statement {
    /**
     * CREATE TABLE name (columns [PRIMARY KEY] ..., [[CONSTRAINT c] PRIMARY KEY (k, ...)]); {@code primaryKey} names
     * the key's columns in key order (empty: no key).
     * <p>
     * CREATE TABLE name (columns) [PARTITION BY ...] [IN GROUP group]; {@code rangeBounds} are the literals of
     * {@code PARTITION BY RANGE(c) BOUNDS (...)}: the lowest key of parts 1..n-1 (empty otherwise).
     */
    record CreateTable(String name, List<ColumnDef> columns, PartitionSpec spec, String group, boolean ifNotExists,
                       List<Object> rangeBounds, List<String> primaryKey, List<UniqueConstraint> unique,
                       List<Default> defaults) implements Statement {
        /** Without column defaults. */
        public CreateTable(String name, List<ColumnDef> columns, PartitionSpec spec, String group,
                           boolean ifNotExists, List<Object> rangeBounds, List<String> primaryKey,
                           List<UniqueConstraint> unique) {
            this(name, columns, spec, group, ifNotExists, rangeBounds, primaryKey, unique, List.of());
        }
    }

    /** A column's DEFAULT: a literal, or the statement's time (CURRENT_TIMESTAMP, now(), CURRENT_DATE). */
    sealed interface Default {
    }

    /** DEFAULT literal (as the parser read it: Long, BigDecimal, Double, String, Boolean, a date or null). */
    record LiteralDefault(Object value) implements Default {
    }

    /** DEFAULT CURRENT_TIMESTAMP, now(), LOCALTIMESTAMP or CURRENT_DATE. */
    record TimeDefault(boolean date) implements Default {
    }

    /**
     * CREATE TABLE [IF NOT EXISTS] name [(column names)] AS query [WITH [NO] DATA]: a table with the query's columns
     * (named by {@code columnNames} where given, the first ones at least), filled with its rows unless
     * {@code withData} is false.
     */
    record CreateTableAs(String name, List<String> columnNames, String query, boolean ifNotExists, boolean withData)
            implements Statement {
    }

    /**
     * A UNIQUE column or table constraint of CREATE TABLE: its columns, and its name when the statement gives one
     * ({@code CONSTRAINT name UNIQUE (...)}); it becomes a unique index.
     */
    record UniqueConstraint(String name, List<String> columns) {
    }

    /**
     * CREATE [UNIQUE] INDEX [IF NOT EXISTS] [name] ON table (column [ASC|DESC], ...); {@code name} is null when the
     * statement leaves it to the database.
     */
    record CreateIndex(String name, String table, List<String> columns, List<Boolean> descending, boolean unique,
                       boolean ifNotExists) implements Statement {
    }

    /** DROP INDEX [IF EXISTS] name, ...: every named index, or none when one is missing (without IF EXISTS). */
    record DropIndex(List<String> names, boolean ifExists) implements Statement {
    }

    /**
     * ALTER TABLE [GROUP] name MOVE [PART k] TO NODE n ({@code count} = k, or -1 for every part), PARTITION INTO n
     * PARTS ({@code count} = n) or MERGE PARTS [TO NODE n] ({@code node} -1: the node of part 0).
     */
    record AlterPlacement(String name, boolean group, Action action, int count, int node) implements Statement {
        public enum Action {
            MOVE, PARTITION, MERGE
        }
    }

    /**
     * ALTER TABLE [IF EXISTS] name followed by ADD/DROP column actions (comma-separated), a RENAME COLUMN or a
     * RENAME TO: changes of the table's definition ({@code ifExists}: a missing table is no error).
     */
    record AlterTable(String name, boolean ifExists, List<AlterAction> actions) implements Statement {
    }

    /** One change of ALTER TABLE. */
    sealed interface AlterAction {
    }

    /** ADD [COLUMN] [IF NOT EXISTS] column [DEFAULT ...]: {@code defaultValue} null for no default. */
    record AddColumn(ColumnDef column, Default defaultValue, boolean ifNotExists) implements AlterAction {
    }

    /** DROP [COLUMN] [IF EXISTS] name [RESTRICT]. */
    record DropColumn(String name, boolean ifExists) implements AlterAction {
    }

    /** RENAME [COLUMN] from TO to. */
    record RenameColumn(String from, String to) implements AlterAction {
    }

    /** RENAME TO name. */
    record RenameTable(String to) implements AlterAction {
    }

    /**
     * ALTER [COLUMN] name SET DEFAULT ... | DROP DEFAULT | SET NOT NULL | DROP NOT NULL: {@code defaultValue} is the
     * new default of SET DEFAULT, null otherwise.
     */
    record AlterColumn(String column, ColumnChange change, Default defaultValue) implements AlterAction {
        public enum ColumnChange { SET_DEFAULT, DROP_DEFAULT, SET_NOT_NULL, DROP_NOT_NULL }
    }

    /** CREATE TABLE GROUP name. */
    record CreateGroup(String name) implements Statement {
    }

    /** DROP TABLE [IF EXISTS] name. */
    record DropTable(String name, boolean ifExists) implements Statement {
    }

    /**
     * CREATE [OR REPLACE] VIEW name [(columns)] AS query; {@code columns} is empty when the query names them.
     */
    record CreateView(String name, List<String> columns, String query, boolean orReplace) implements Statement {
    }

    /** DROP VIEW [IF EXISTS] name. */
    record DropView(String name, boolean ifExists) implements Statement {
    }

    /** DROP TABLE GROUP name. */
    record DropGroup(String name) implements Statement {
    }

    /**
     * INSERT INTO name [(columns)] VALUES (...), ...: values as written (Long, BigDecimal, Double, String, Boolean,
     * {@link DateValue}, {@link Parameter}, or null), converted to the columns' types when executed.
     */
    /**
     * INSERT, UPDATE or DELETE ... RETURNING list: the statement, the table it changes (named {@code alias} in the
     * list, when given) and the list's text, evaluated over the rows the statement inserted, updated (their new
     * values) or deleted. The list reads the table's columns alone: after a leading WITH list, not its queries (run
     * again after the change, they would see the changed rows).
     */
    record Returning(Statement statement, String table, String alias, String list) implements Statement {
    }

    record Insert(String table, List<String> columns, List<List<Object>> rows, int parameterCount,
                  OnConflict onConflict) implements Statement {
    }

    /** INSERT INTO name [(columns)] SELECT ... [ON CONFLICT ...]: the query's text, run as a query. */
    record InsertSelect(String table, List<String> columns, String query, OnConflict onConflict)
            implements Statement {
    }

    /**
     * An INSERT's {@code ON CONFLICT} clause: the conflict's columns (or a constraint's name), the table's alias in
     * the expressions (null: its name), and DO NOTHING or DO UPDATE SET {@code columns} = {@code expressions} [WHERE
     * {@code condition}]. Expressions are text over the conflicting row's columns and the proposed row's, the latter
     * named {@link #EXCLUDED_PREFIX} + column.
     */
    record OnConflict(List<String> target, String constraint, String alias, boolean doNothing, List<String> columns,
                      List<String> expressions, String condition) {
        public static final String EXCLUDED_PREFIX = "locus_excluded_";
    }

    /**
     * DELETE FROM name [[AS] alias] [USING from-list] [WHERE condition]: the condition's text (null for every row);
     * USING is already in it, as {@code EXISTS (SELECT 1 FROM from-list WHERE condition)}; {@code alias} names the
     * table in it (null: its own name); {@code with} is the statement's leading WITH list (null: none), which the
     * query that finds the rows starts with.
     */
    record Delete(String table, String alias, String condition, String with) implements Statement {
    }

    /** TRUNCATE t, ...: every row of each table removed. */
    record Truncate(List<String> tables) implements Statement {
    }

    /**
     * UPDATE name [[AS] alias] SET column = expression, ... [WHERE condition]: each expression's and the condition's
     * text (null for every row), evaluated as a query over the table (named {@code alias} there, when given). With
     * {@code FROM other tables} (the list's text, else null) the query joins them: each row of the table that joins is
     * updated once, from one of the rows it joins (PostgreSQL's rule; which one is not defined). {@code with} is the
     * statement's leading WITH list (null: none), which that query starts with.
     */
    record Update(String table, String alias, List<String> columns, List<String> expressions, String from,
                  String condition, String with) implements Statement {
    }

    /** A {@code ?} in an INSERT's VALUES: the statement's {@code index}-th parameter (0-based). */
    record Parameter(int index) {
    }

    /**
     * LOAD TPCH SCALE sf [PARTS n] [SLICE i OF k]: with a slice, the i-th of k disjoint key ranges of each table
     * (nation and region whole in slice 0, empty in the others), so that k servers together hold one database.
     */
    record LoadTpch(double scaleFactor, int parts, int slice, int slices) implements Statement {
    }

    /** COPY name FROM 'file' [WITH (FORMAT tbl|csv, HEADER true|false)]. */
    record CopyFrom(String table, String file, String format, Boolean header) implements Statement {
    }

    /** A DATE literal in an INSERT. */
    record DateValue(String text) {
    }

    /** A TIMESTAMP literal in an INSERT. */
    record TimestampValue(String text) {
    }
}
