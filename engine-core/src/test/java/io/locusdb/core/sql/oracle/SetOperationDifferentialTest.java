package io.locusdb.core.sql.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.type.ColumnType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * UNION, INTERSECT and EXCEPT, each with and without ALL, against DuckDB: three tables of different column types (an
 * INTEGER beside a BIGINT, decimals of two scales), NULLs and duplicates in every column, one in two parts on the
 * fake two nodes, one in delta-only parts. Set operations treat NULLs as equal and DISTINCT ones remove duplicates
 * within each input too; unions feed aggregations, joins, sorts and limits above them. {@value #QUERIES} random
 * queries and hand-written ones; every difference and every LocusDB error fails.
 */
class SetOperationDifferentialTest {
    static final int QUERIES = Integer.getInteger("locus.setop.queries", 120);
    private static final long SEED = Long.getLong("locus.setop.seed", 20_261_128L);
    private static final Schema S0 = Schema.of(ColumnDef.notNull("id", ColumnType.BIGINT),
            ColumnDef.of("k", ColumnType.INTEGER), ColumnDef.of("s", ColumnType.VARCHAR),
            ColumnDef.of("d", ColumnType.decimal(12, 2)));
    private static final Schema S1 = Schema.of(ColumnDef.notNull("id", ColumnType.INTEGER),
            ColumnDef.of("k", ColumnType.BIGINT), ColumnDef.of("s", ColumnType.VARCHAR),
            ColumnDef.of("d", ColumnType.decimal(10, 3)));
    private static final String[] TABLES = {"u0", "u1", "u2"};
    private static final int[] ROWS = {300, 200, 60};
    private static final String[] STRINGS = {"a", "b", "c", "ab", "", "zz"};

    private static OracleDatabases databases;
    private static Session session;
    private static DuckOracle duck;

    @BeforeAll
    static void load() {
        databases = OracleDatabases.open();
        session = databases.session;
        duck = databases.duck;
        createTables(databases);
    }

    /**
     * Tables u0, u1 and u2 in both databases: NULLs and duplicates in every column, an INTEGER beside a BIGINT and
     * decimals of two scales, u0 in two parts on two nodes, u2 hash-partitioned in delta-only parts.
     */
    static void createTables(OracleDatabases databases) {
        Random random = new Random(SEED);
        for (int t = 0; t < TABLES.length; t++) {
            Schema schema = t == 1 ? S1 : S0;
            List<Object[]> rows = new ArrayList<>();
            for (int i = 0; i < ROWS[t]; i++) {
                Integer k = random.nextInt(8) == 0 ? null : random.nextInt(6 + 4 * t);
                String s = random.nextInt(7) == 0 ? null : STRINGS[random.nextInt(STRINGS.length)];
                BigDecimal d = random.nextInt(9) == 0 ? null
                        : BigDecimal.valueOf(random.nextInt(40) - 20, t == 1 ? 3 : 2);
                Object id = t == 1 ? (Object) (i % 150) : (Object) (long) (i % 170);
                rows.add(new Object[] {id, t == 1 && k != null ? (Object) (long) k : k, s, d});
            }
            PartitionSpec spec = t == 2 ? new PartitionSpec.Hash("id", 2) : PartitionSpec.none();
            Table table = databases.locus.catalog().createTable(TABLES[t], schema, spec,
                    new InitialPlacement.RoundRobin(), null);
            table.insert(OracleTables.physicalRows(schema, rows));
            if (t == 0) {
                databases.execute("ALTER TABLE u0 PARTITION INTO 2 PARTS");
                databases.execute("ALTER TABLE u0 MOVE PART 1 TO NODE 1");
            }
            databases.duck.createTable(TABLES[t], schema);
            databases.duck.insert(TABLES[t], schema, rows);
        }
    }

    @AfterAll
    static void close() {
        if (databases != null) {
            databases.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> handWrittenSetOperationsAgreeWithDuckDB() {
        return Stream.of(
                "SELECT k FROM u0 UNION ALL SELECT k FROM u1",
                "SELECT k, s FROM u0 UNION SELECT k, s FROM u1",
                "SELECT k, s FROM u0 INTERSECT SELECT k, s FROM u1",
                "SELECT k, s FROM u0 EXCEPT SELECT k, s FROM u1",
                "SELECT s FROM u1 EXCEPT SELECT s FROM u0",
                "SELECT d FROM u0 UNION SELECT d FROM u1",
                "SELECT id, d FROM u0 INTERSECT SELECT id, d FROM u1",
                "SELECT k FROM u0 UNION ALL SELECT k FROM u1 UNION ALL SELECT k FROM u2",
                "SELECT k FROM u0 EXCEPT SELECT k FROM u1 EXCEPT SELECT k FROM u2",
                "SELECT k FROM u0 INTERSECT SELECT k FROM u1 INTERSECT SELECT k FROM u2",
                "(SELECT k FROM u0 UNION SELECT k FROM u1) EXCEPT SELECT k FROM u2",
                "SELECT k FROM u0 UNION ALL (SELECT k FROM u1 INTERSECT SELECT k FROM u2)",
                "SELECT k, count(*), sum(d) FROM (SELECT k, d FROM u0 UNION ALL SELECT k, d FROM u2) x GROUP BY k",
                "SELECT count(*) FROM (SELECT s FROM u0 UNION ALL SELECT s FROM u1 WHERE k > 3) x",
                "SELECT x.k, count(*) FROM (SELECT k FROM u0 UNION SELECT k FROM u1) x JOIN u2 ON x.k = u2.k"
                        + " GROUP BY x.k",
                "SELECT a.id, x.s FROM u2 a JOIN (SELECT id, s FROM u0 WHERE k < 3 UNION ALL SELECT id, s FROM u1"
                        + " WHERE k > 7) x ON a.id = x.id",
                "SELECT k, s FROM u0 WHERE s = 'a' UNION ALL SELECT k, max(s) FROM u1 GROUP BY k",
                "SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, 'y' UNION ALL SELECT k, s FROM u2 WHERE id < 5",
                "SELECT k FROM u0 UNION SELECT NULL",
                "SELECT s, k FROM u0 WHERE k IS NULL UNION ALL SELECT s, k FROM u1 WHERE s IS NULL",
                "SELECT count(*), count(DISTINCT k) FROM (SELECT k FROM u0 UNION ALL SELECT k FROM u1) x")
                .map(sql -> dynamicTest(sql, () -> ResultComparison.assertAgrees(session, duck, sql, false)));
    }

    @TestFactory
    Stream<DynamicTest> orderedSetOperationsAgreeWithDuckDB() {
        return Stream.of(
                "SELECT k, s FROM u0 UNION SELECT k, s FROM u1 ORDER BY k NULLS FIRST, s NULLS FIRST",
                "SELECT id, k FROM u0 UNION ALL SELECT id, k FROM u1 ORDER BY id DESC, k NULLS LAST LIMIT 25",
                "SELECT s FROM u0 EXCEPT SELECT s FROM u2 ORDER BY s NULLS LAST LIMIT 3 OFFSET 1")
                .map(sql -> dynamicTest(sql, () -> ResultComparison.assertAgrees(session, duck, sql, true)));
    }

    @TestFactory
    Stream<DynamicTest> randomSetOperationsAgreeWithDuckDB() {
        Random random = new Random(SEED * 17 + 3);
        List<DynamicTest> tests = new ArrayList<>();
        for (int q = 0; q < QUERIES; q++) {
            String sql = query(random);
            tests.add(dynamicTest(String.format("set operation %03d: %s", q + 1, sql),
                    () -> ResultComparison.assertAgrees(session, duck, sql, false)));
        }
        return tests.stream();
    }

    private static final String[] OPERATORS = {"UNION ALL", "UNION", "INTERSECT", "EXCEPT", "INTERSECT ALL",
        "EXCEPT ALL"};
    private static final String[][] COLUMN_SETS = {{"k"}, {"s"}, {"k", "s"}, {"d"}, {"id", "k"}, {"s", "d"}};

    static String query(Random random) {
        String[] columns = COLUMN_SETS[random.nextInt(COLUMN_SETS.length)];
        int inputs = 2 + random.nextInt(2);
        StringBuilder sql = new StringBuilder();
        for (int i = 0; i < inputs; i++) {
            if (i > 0) {
                sql.append(' ').append(OPERATORS[random.nextInt(OPERATORS.length)]).append(' ');
            }
            sql.append("SELECT ").append(String.join(", ", columns)).append(" FROM ")
                    .append(TABLES[random.nextInt(TABLES.length)]);
            switch (random.nextInt(4)) {
                case 0 -> sql.append(" WHERE k < ").append(random.nextInt(10));
                case 1 -> sql.append(" WHERE s IS NOT NULL");
                default -> {
                }
            }
        }
        if (random.nextInt(3) == 0) {
            return "SELECT " + columns[0] + ", count(*) FROM (" + sql + ") x GROUP BY " + columns[0];
        }
        return sql.toString();
    }

    @TestFactory
    Stream<DynamicTest> intersectAllAndExceptAllKeepCopiesAsTheStandardSays() {
        return Stream.of(
                "SELECT k FROM u0 INTERSECT ALL SELECT k FROM u1",
                "SELECT k, s FROM u0 EXCEPT ALL SELECT k, s FROM u2",
                "SELECT s FROM u2 EXCEPT ALL SELECT s FROM u0 EXCEPT ALL SELECT s FROM u1",
                "SELECT d FROM u0 INTERSECT ALL SELECT d FROM u2 INTERSECT ALL SELECT d FROM u0 WHERE k < 4",
                "SELECT k, count(*) FROM (SELECT k FROM u0 EXCEPT ALL SELECT k FROM u1) x GROUP BY k",
                "SELECT k FROM u0 UNION ALL (SELECT k FROM u1 INTERSECT ALL SELECT k FROM u2)")
                .map(sql -> dynamicTest(sql, () -> ResultComparison.assertAgrees(session, duck, sql, false)));
    }

    @Test
    void explainShowsEachInputOfAUnion() {
        try (QueryResult r = session.execute("EXPLAIN SELECT k FROM u0 UNION ALL SELECT k FROM u1")) {
            assertThat(r.toList().toString()).contains("UnionAll: 2 inputs", "input 1:", "input 2:");
        }
    }
}
