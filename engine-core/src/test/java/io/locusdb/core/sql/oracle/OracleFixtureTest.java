package io.locusdb.core.sql.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.query.planner.ConstantFolder;
import io.locusdb.core.sql.SqlFrontEnd;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Checks the oracle itself, without running queries in LocusDB: both engines hold exactly the same rows, and every
 * generated query is accepted by the SQL front end (parsed, validated, within the supported plan shapes) and runs
 * on DuckDB. A failure here is a bug in the test fixtures or the generator, not in the query engine.
 */
class OracleFixtureTest {
    private static DifferentialFixture fixture;

    @BeforeAll
    static void load() {
        fixture = DifferentialFixture.open();
    }

    @AfterAll
    static void close() {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void mixedHoldsTheSameRowsInBothEnginesWithNullsAndDeltas() {
        Table table = fixture.mixedTable;
        List<List<Object>> expected = canonical(table.schema(),
                OracleTables.physicalRows(table.schema(), fixture.mixed.all()));
        List<List<Object>> inLocus = canonical(table.schema(), OracleTables.storedRows(table));
        List<List<Object>> inDuck = fromDuck(table.schema(), fixture.duck.query("SELECT * FROM mixed").rows());

        assertThat(inLocus).hasSize(2 * OracleTables.MIXED_ROWS_PER_PART
                + OracleTables.MIXED_DELTA_COMMITS * OracleTables.MIXED_DELTA_ROWS_PER_COMMIT);
        assertThat(inLocus).isEqualTo(expected);
        assertThat(inDuck).isEqualTo(expected);
        assertThat(table.version().parts()).hasSize(2);
        assertThat(table.version().parts()).allSatisfy(p -> assertThat(p.delta().visibleRows(Long.MAX_VALUE))
                .isPositive());
        for (int c = 1; c < table.schema().size(); c++) {
            int column = c;
            assertThat(fixture.mixed.all()).as("NULLs in " + table.schema().column(c).name())
                    .anyMatch(row -> row[column] == null);
        }
        assertThat(fixture.mixed.all()).anyMatch(row -> "".equals(row[5]));
    }

    @Test
    void lineitemHoldsTheSameRowsInBothEngines() {
        Table table = fixture.lineitemTable;
        List<List<Object>> inLocus = canonical(table.schema(), OracleTables.storedRows(table));
        List<List<Object>> inDuck = fromDuck(table.schema(), fixture.duck.query("SELECT * FROM lineitem").rows());

        assertThat(inLocus).hasSize(60_175 + OracleTables.LINEITEM_DELTA_ROWS);
        assertThat(inLocus).isEqualTo(inDuck);
        assertThat(table.version().parts()).hasSize(DifferentialFixture.LINEITEM_PARTS);
        assertThat(table.version().parts().stream().mapToLong(p -> p.delta().visibleRows(Long.MAX_VALUE)).sum())
                .isEqualTo(OracleTables.LINEITEM_DELTA_ROWS);
    }

    @Test
    void theGeneratorIsDeterministicAndEveryQueryPlansAndRunsOnDuckDB() {
        List<QueryGenerator.GeneratedQuery> queries = fixture.queries();
        assertThat(queries.stream().map(QueryGenerator.GeneratedQuery::sql).toList())
                .isEqualTo(DifferentialFixture.generate(OracleTables.mixedData(DifferentialFixture.DATA_SEED))
                        .stream().map(QueryGenerator.GeneratedQuery::sql).toList());
        assertThat(queries).hasSizeGreaterThanOrEqualTo(300);
        System.out.println("[oracle] " + QueryGenerator.summary(queries));

        SqlFrontEnd frontEnd = new SqlFrontEnd(fixture.locus.catalog(), ConstantFolder.INSTANCE);
        List<String> problems = new ArrayList<>();
        int empty = 0;
        int dividedByZero = 0;
        long rows = 0;
        for (QueryGenerator.GeneratedQuery q : queries) {
            try {
                SqlFrontEnd.LogicalQuery plan = frontEnd.plan(q.sql());
                assertThat(plan.columnNames()).isNotEmpty();
            } catch (RuntimeException e) {
                problems.add("front end rejects " + q.displayName() + ": " + e);
            }
            try {
                DuckOracle.DuckRows result = fixture.duck.query(q.duckSql());
                empty += result.rows().isEmpty() ? 1 : 0;
                rows += result.rows().size();
            } catch (DuckOracle.DivisionByZero e) {
                dividedByZero++;
            } catch (RuntimeException e) {
                problems.add("DuckDB rejects " + q.displayName() + ": " + e.getMessage());
            }
        }
        System.out.println("[oracle] DuckDB: " + empty + " queries with no rows, " + dividedByZero
                + " refused for dividing by zero, " + rows + " rows in all");
        assertThat(problems).isEmpty();
        // Division by zero is covered, and most queries still have answers to compare.
        assertThat(dividedByZero).isPositive().isLessThan(queries.size() / 10);
    }

    @Test
    void theHandWrittenPreparedAndTpchQueriesPlanAndRunOnDuckDB() {
        SqlFrontEnd frontEnd = new SqlFrontEnd(fixture.locus.catalog(), ConstantFolder.INSTANCE);
        List<String> problems = new ArrayList<>();
        for (DifferentialQueryTest.Edge e : DifferentialQueryTest.EDGE_CASES) {
            check(frontEnd, e.sql(), List.<Object[]>of(new Object[0]), problems);
        }
        for (DifferentialQueryTest.Prepared q : DifferentialQueryTest.PREPARED) {
            check(frontEnd, q.sql(), q.parameterSets(), problems);
        }
        for (TpchOracleTest.OracleQuery q : TpchOracleTest.queries(DifferentialFixture.LINEITEM_SF)) {
            check(frontEnd, q.sql(), q.parameterSets().isEmpty() ? List.<Object[]>of(new Object[0]) : q.parameterSets(),
                    problems);
        }
        assertThat(problems).isEmpty();
    }

    private static void check(SqlFrontEnd frontEnd, String sql, List<Object[]> parameterSets, List<String> problems) {
        try {
            frontEnd.plan(sql);
        } catch (RuntimeException e) {
            problems.add("front end rejects " + sql + ": " + e);
        }
        for (Object[] parameters : parameterSets) {
            try {
                fixture.duck.query(sql, parameters);
            } catch (RuntimeException e) {
                problems.add("DuckDB rejects " + sql + ": " + e.getMessage());
            }
        }
    }

    /** Rows in one comparable form, sorted: integers, booleans (0/1) and dates as Long, DECIMAL unscaled. */
    private static List<List<Object>> canonical(Schema schema, List<?> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (Object row : rows) {
            List<?> values = row instanceof Object[] a ? Arrays.asList(a) : (List<?>) row;
            Object[] c = new Object[values.size()];
            for (int i = 0; i < c.length; i++) {
                c[i] = switch (values.get(i)) {
                    case null -> null;
                    case Boolean b -> b ? 1L : 0L;
                    case Integer n -> (long) n;
                    case Object o -> o;
                };
            }
            out.add(Arrays.asList(c));
        }
        boolean[] exact = new boolean[schema.size()];
        out.sort(ResultComparison.rowOrder(exact, exact));
        return out;
    }

    private static List<List<Object>> fromDuck(Schema schema, List<List<Object>> rows) {
        List<Object[]> logical = new ArrayList<>();
        for (List<Object> row : rows) {
            logical.add(row.toArray());
        }
        return canonical(schema, OracleTables.physicalRows(schema, logical));
    }
}
