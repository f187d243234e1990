package io.locusdb.core.query.lookup;

import io.locusdb.core.query.scan.IndexScan;
import io.locusdb.core.result.BatchSource;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.DoubleDictionary;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.table.KeyLookup;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.vector.ColumnVector;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A query that reads rows by their whole primary key, {@code SELECT columns FROM t WHERE k = ? [AND k2 = ?]} or, on a
 * key of one column, {@code WHERE k IN (?, ?, ...)} (a multi-get: each distinct key looked up once, in the list's
 * order, which for literals is ascending: the planner sorts them), run without physical planning or a task graph: the
 * key routes to the part(s) that may hold it, the part's key index finds the row, and its columns are read straight
 * into the result (ERIS's lookup data command; other engines call it a point get). Recognized once when the statement
 * is prepared; per execution only the key is bound. The few cache lines a lookup reads cost less than handing it to a
 * worker on the part's node, which is what a scan task would do. The planner recognizes such statements ({@code
 * KeyLookupPlanning}); any parameter value this plan does not take as is sends the statement the general way.
 */
public final class KeyLookupPlan {
    private static final BigDecimal LONG_RANGE = BigDecimal.valueOf(Long.MAX_VALUE);
    private final Table planned;
    private final int[] keyColumns;
    /**
     * Per key looked up (one, or one per IN-list element), per key column: the parameter's index, or -1 when the
     * value is a literal (then in {@link #literals}).
     */
    private final int[][] parameters;
    private final Object[][] literals;
    /** Per output, the table column it reads, or {@link #CONSTANT} for the value in {@link #constants}. */
    private final int[] outputs;
    private final Object[] constants;
    private final List<ResultColumn> columns;
    /** An output that is the constant in {@code constants} rather than a table column. */
    public static final int CONSTANT = -1;
    /** The most keys one statement looks up this way; a longer IN list runs as a scan through the index. */
    public static final int MAX_KEYS = 1024;

    /**
     * @param keyColumns the key's columns in key order
     * @param parameters per key looked up, per key column, the parameter it is bound to, or -1 for the literal in
     *                   {@code literals}
     * @param outputs    per result column, the table column read, or {@link #CONSTANT}
     */
    public KeyLookupPlan(Table planned, int[] keyColumns, int[][] parameters, Object[][] literals, int[] outputs,
                          Object[] constants, List<ResultColumn> columns) {
        this.planned = planned;
        this.keyColumns = keyColumns;
        this.parameters = parameters;
        this.literals = literals;
        this.outputs = outputs;
        this.constants = constants;
        this.columns = columns;
    }

    /** Keys whose SQL values are their stored values: integers and text. */
    public static boolean lookupType(ColumnType type) {
        return switch (type.kind()) {
            case INTEGER, BIGINT, VARCHAR -> true;
            default -> false;
        };
    }

    /** A bound value as the key column stores it; null when it is not one this plan takes as is. */
    public static Object physical(ColumnType type, Object value) {
        return switch (type.kind()) {
            case INTEGER, BIGINT -> switch (value) {
                case Long l -> l;
                case Integer i -> (long) i;
                case Short s -> (long) s;
                case Byte b -> (long) b;
                case BigDecimal d when d.stripTrailingZeros().scale() <= 0
                        && d.abs().compareTo(LONG_RANGE) < 0 -> d.longValueExact();
                default -> null;
            };
            case VARCHAR -> value instanceof String s ? s : null;
            default -> null;
        };
    }

    /**
     * The row with the key bound from {@code values}, as a result; null when this lookup cannot answer (a value
     * of another kind than the key's, or the index switched off): then the statement runs as a query.
     */
    public QueryResult execute(Object[] values, UnaryOperator<Table> resolve) {
        if (!IndexScan.enabled()) {
            return null;
        }
        // Each distinct key once: k IN (1, 1) reads the row once. A key with a NULL matches nothing.
        Set<List<Object>> keys = new LinkedHashSet<>();
        for (int p = 0; p < parameters.length; p++) {
            Object[] key = new Object[keyColumns.length];
            boolean none = false;
            for (int k = 0; k < key.length; k++) {
                if (parameters[p][k] < 0) {
                    key[k] = literals[p][k];
                } else {
                    Object value = values[parameters[p][k]];
                    if (value == null) {
                        none = true;
                        continue;
                    }
                    key[k] = physical(planned.schema().column(keyColumns[k]).type(), value);
                    if (key[k] == null) {
                        return null;
                    }
                }
                none |= key[k] == null;
            }
            if (!none) {
                keys.add(Arrays.asList(key));
            }
        }
        Table table = resolve.apply(planned);
        if (table != planned && (!table.schema().primaryKey().equals(planned.schema().primaryKey())
                || !table.schema().columns().equals(planned.schema().columns()))) {
            return null;
        }
        ColumnVector[] vectors = new ColumnVector[outputs.length];
        for (int i = 0; i < outputs.length; i++) {
            vectors[i] = new ColumnVector(columns.get(i).type(), 1);
        }
        int rows = 0;
        try (TableSnapshot snapshot = table.snapshot()) {
            for (List<Object> keyValues : keys) {
                Object[] key = keyValues.toArray();
                for (TablePart part : table.partsHoldingKey(snapshot.version(), keyColumns, key)) {
                    List<Long> found = new ArrayList<>(1);
                    KeyLookup.find(part, keyColumns, key, snapshot.commit(), snapshot.deltaRows(part), found::add);
                    for (long row : found) {
                        for (int i = 0; i < outputs.length; i++) {
                            vectors[i].ensureCapacity(rows + 1);
                            if (outputs[i] == CONSTANT) {
                                set(vectors[i], rows, constants[i]);
                            } else {
                                set(vectors[i], rows, part, outputs[i], row);
                            }
                        }
                        rows++;
                    }
                }
            }
        }
        for (ColumnVector v : vectors) {
            v.setSize(rows);
            v.refreshNulls();
        }
        ResultBatch batch = new ResultBatch(columns, List.of(vectors), rows);
        return QueryResult.rows(columns, BatchSource.of(batch));
    }

    /** What EXPLAIN prints for this statement. */
    public List<String> explain(UnaryOperator<Table> resolve) {
        Table table = resolve.apply(planned);
        Schema schema = table.schema();
        List<String> probes = new ArrayList<>();
        for (int p = 0; p < parameters.length; p++) {
            List<String> key = new ArrayList<>();
            for (int k = 0; k < keyColumns.length; k++) {
                key.add(schema.column(keyColumns[k]).name() + " = " + (parameters[p][k] < 0
                        ? String.valueOf(literals[p][k]) : "$" + (parameters[p][k] + 1)));
            }
            probes.add(String.join(" AND ", key));
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < outputs.length; i++) {
            names.add(outputs[i] == CONSTANT ? String.valueOf(constants[i]) : schema.column(outputs[i]).name());
        }
        List<String> lines = new ArrayList<>();
        lines.add("Key lookup on " + table.name() + " (" + String.join(" OR ", probes) + "): no physical plan and no"
                + " tasks; " + (probes.size() == 1 ? "the key routes to its part, whose key index finds the row"
                : "each distinct key routes to its part, whose key index finds its row") + (IndexScan.enabled() ? ""
                : " (the index is switched off: runs as a scan)"));
        lines.add("  output " + String.join(", ", names));
        try (TableSnapshot snapshot = table.snapshot()) {
            for (TablePart part : snapshot.parts()) {
                lines.add(String.format(Locale.ROOT, "  part %d: %,d rows (+%d delta) on node %d",
                        part.index(), part.rows(), snapshot.deltaRows(part), part.homeNode()));
            }
        }
        return lines;
    }

    /** Row {@code row} (main rows, then delta rows) of column {@code column} into {@code target} at {@code at}. */
    private static void set(ColumnVector target, int at, TablePart part, int column, long row) {
        Object value;
        if (row >= part.rows()) {
            value = part.delta().row((int) (row - part.rows()))[column];
        } else {
            Column c = part.column(column);
            int id = c.codes().get(row);
            value = id == 0 ? null : switch (c.dictionary()) {
                case LongDictionary d -> (Object) d.value(id);
                case DoubleDictionary d -> (Object) d.value(id);
                case StringDictionary d -> (Object) d.value(id);
            };
        }
        set(target, at, value);
    }

    private static void set(ColumnVector target, int at, Object value) {
        switch (value) {
            case null -> target.setNull(at);
            case Long l -> target.setLong(at, l);
            case Double d -> target.setDouble(at, d);
            case String s -> target.setString(at, s);
            default -> throw new IllegalStateException("stored value of type " + value.getClass().getSimpleName());
        }
    }
}
