package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.vector.ColumnVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * WITH RECURSIVE as PostgreSQL evaluates it: the seed's rows are the first working table; each round runs the
 * recursive part over the working table alone, and its rows (without UNION ALL: those not produced before) become
 * the next working table and are added to the result, until a round adds none. The result is held as it grows,
 * charged to the query's memory budget; a recursion that never ends stops at a round limit with an error rather
 * than run until memory is gone.
 */
final class RecursiveUnion {
    /** Rounds at most when the query sets no limit; {@code -Dlocus.recursion-limit=N} changes it. */
    static final int ROUND_LIMIT = Integer.getInteger("locus.recursion-limit", 100_000);

    private RecursiveUnion() {
    }

    static Relation evaluate(PhysicalPlan.RepeatUnion repeat, QueryContext query,
                             Function<PhysicalPlan, Relation> evaluate) {
        WorkingTables tables = query.attachment(WorkingTables.class, WorkingTables::new);
        Set<List<Object>> seen = repeat.all() ? null : new HashSet<>();
        Relation added = newRows(evaluate.apply(repeat.seed()), seen, repeat.names());
        Relation result = Relation.empty(added.types(), repeat.names()).chargedTo(query.memory());
        int limit = repeat.limit() >= 0 ? repeat.limit() : ROUND_LIMIT;
        int rounds = 0;
        try {
            while (added.rows() > 0) {
                result.append(added.columns(), added.rows());
                if (rounds++ == limit) {
                    throw new LocusSqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "the recursive query "
                            + repeat.table() + " did not end after " + limit + " rounds (each added rows; a"
                            + " recursion that never ends needs a condition that stops it, or UNION instead of"
                            + " UNION ALL; -Dlocus.recursion-limit sets the limit)");
                }
                query.checkCancelled();
                tables.put(repeat.table(), added);
                added = newRows(evaluate.apply(repeat.step()), seen, repeat.names());
            }
        } finally {
            tables.remove(repeat.table());
        }
        return result;
    }

    /** {@code rows} as a relation of {@code names}; without UNION ALL, only the rows not in {@code seen} (added). */
    private static Relation newRows(Relation rows, Set<List<Object>> seen, List<String> names) {
        if (seen == null) {
            return new Relation(rows.columns(), names, rows.rows());
        }
        List<ColumnVector> columns = rows.columns();
        int[] kept = new int[rows.rows()];
        int count = 0;
        for (int r = 0; r < rows.rows(); r++) {
            Object[] key = new Object[columns.size()];
            for (int c = 0; c < key.length; c++) {
                key[c] = columns.get(c).isNull(r) ? null : columns.get(c).boxed(r);
            }
            if (seen.add(Arrays.asList(key))) {
                kept[count++] = r;
            }
        }
        List<ColumnVector> gathered = new ArrayList<>(columns.size());
        for (ColumnVector c : columns) {
            gathered.add(c.gather(kept, count));
        }
        return new Relation(gathered, names, count);
    }

    /** The working tables of the recursions running in one query, by name (the recursive part reads them). */
    static final class WorkingTables {
        private final Map<String, Relation> tables = new HashMap<>();

        synchronized void put(String name, Relation rows) {
            tables.put(name, rows);
        }

        synchronized void remove(String name) {
            tables.remove(name);
        }

        synchronized Relation get(String name) {
            Relation rows = tables.get(name);
            if (rows == null) {
                throw new IllegalStateException("no working table " + name + " outside its recursion");
            }
            return rows;
        }
    }
}
