package io.locusdb.core.sql.oracle;

import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.locusdb.core.Session;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.type.ColumnType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Window functions against DuckDB, on a table of {@value #ROWS} rows in two parts on the fake two nodes with NULLs
 * and ties in every partition and order column: ranking (ROW_NUMBER, RANK, DENSE_RANK, NTILE, PERCENT_RANK,
 * CUME_DIST), LAG and LEAD with offsets and defaults, FIRST_VALUE and LAST_VALUE, and COUNT, SUM, AVG, MIN and MAX
 * over partitions with the default frame, ROWS frames bounded and unbounded on either side, and RANGE frames with
 * offsets on integers, decimals and dates, ascending and descending; several windows in one query, windows over
 * joins and aggregations, and windows under ORDER BY ... LIMIT. Orders that could tie are completed by the unique
 * id, so each query has one answer; every difference and every LocusDB error fails.
 */
class WindowDifferentialTest {
    static final int ROWS = 3_000;
    private static final Schema SCHEMA = Schema.of(ColumnDef.notNull("id", ColumnType.BIGINT),
            ColumnDef.of("g", ColumnType.INTEGER), ColumnDef.of("x", ColumnType.INTEGER),
            ColumnDef.of("d", ColumnType.decimal(10, 2)), ColumnDef.of("s", ColumnType.VARCHAR),
            ColumnDef.of("dt", ColumnType.DATE), ColumnDef.of("f", ColumnType.DOUBLE));

    private static OracleDatabases databases;
    private static Session session;
    private static DuckOracle duck;

    @BeforeAll
    static void load() {
        databases = OracleDatabases.open();
        session = databases.session;
        duck = databases.duck;
        Random random = new Random(20_261_128L);
        List<Object[]> rows = new ArrayList<>();
        String[] strings = {"a", "b", "c", "ab", "zz"};
        for (int i = 0; i < ROWS; i++) {
            rows.add(new Object[] {(long) i,
                    random.nextInt(15) == 0 ? null : random.nextInt(7),
                    random.nextInt(10) == 0 ? null : random.nextInt(50) - 10,
                    random.nextInt(10) == 0 ? null : BigDecimal.valueOf(random.nextInt(4000) - 1000, 2),
                    random.nextInt(8) == 0 ? null : strings[random.nextInt(strings.length)],
                    random.nextInt(12) == 0 ? null : LocalDate.of(2024, 1, 1).plusDays(random.nextInt(90)),
                    random.nextInt(9) == 0 ? null : (double) (random.nextInt(1000) - 300) / 8});
        }
        Table table = databases.locus.catalog().createTable("w", SCHEMA, new PartitionSpec.Hash("id", 2),
                new InitialPlacement.RoundRobin(), null);
        table.insert(OracleTables.physicalRows(SCHEMA, rows));
        databases.execute("ALTER TABLE w MERGE PARTS");
        databases.execute("ALTER TABLE w PARTITION INTO 2 PARTS");
        duck.createTable("w", SCHEMA);
        duck.insert("w", SCHEMA, rows);
    }

    @AfterAll
    static void close() {
        if (databases != null) {
            databases.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> windowFunctionsAgreeWithDuckDB() {
        return Stream.of(
                "SELECT id, row_number() OVER (ORDER BY id) FROM w",
                "SELECT id, row_number() OVER (PARTITION BY g ORDER BY x, id) FROM w",
                "SELECT id, rank() OVER (PARTITION BY g ORDER BY x), dense_rank() OVER (PARTITION BY g ORDER BY x)"
                        + " FROM w",
                "SELECT id, rank() OVER (ORDER BY s DESC NULLS LAST) FROM w",
                "SELECT id, ntile(4) OVER (PARTITION BY g ORDER BY id), ntile(7) OVER (ORDER BY d, id) FROM w",
                "SELECT id, percent_rank() OVER (PARTITION BY g ORDER BY x), cume_dist() OVER (PARTITION BY g"
                        + " ORDER BY x) FROM w",
                "SELECT id, lag(x) OVER (PARTITION BY g ORDER BY id), lead(s, 2) OVER (PARTITION BY g ORDER BY id)"
                        + " FROM w",
                "SELECT id, lag(d, 3, 0) OVER (ORDER BY id), lead(x, 1, -1) OVER (PARTITION BY s ORDER BY id) FROM w",
                "SELECT id, first_value(x) OVER (PARTITION BY g ORDER BY id), last_value(s) OVER (PARTITION BY g"
                        + " ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM w",
                "SELECT id, first_value(d) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) FROM w",
                "SELECT id, count(*) OVER (PARTITION BY g), sum(x) OVER (PARTITION BY g), min(s) OVER (PARTITION BY"
                        + " g), max(d) OVER (PARTITION BY g) FROM w",
                "SELECT id, sum(x) OVER (PARTITION BY g ORDER BY id), count(x) OVER (PARTITION BY g ORDER BY id)"
                        + " FROM w",
                "SELECT id, sum(d) OVER (PARTITION BY g ORDER BY x) FROM w",
                "SELECT id, avg(x) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) FROM w",
                "SELECT id, sum(d) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM w",
                "SELECT id, max(x) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 4 FOLLOWING) FROM w",
                "SELECT id, min(f) OVER (ORDER BY id ROWS BETWEEN 5 PRECEDING AND 1 PRECEDING) FROM w",
                "SELECT id, sum(f) OVER (PARTITION BY g ORDER BY id) FROM w",
                "SELECT id, count(*) OVER (PARTITION BY g ORDER BY x RANGE BETWEEN 5 PRECEDING AND 5 FOLLOWING)"
                        + " FROM w",
                "SELECT id, sum(x) OVER (ORDER BY x DESC RANGE BETWEEN 3 PRECEDING AND CURRENT ROW) FROM w",
                "SELECT id, count(*) OVER (ORDER BY d RANGE BETWEEN 1.50 PRECEDING AND 0.25 FOLLOWING) FROM w",
                "SELECT id, count(*) OVER (PARTITION BY g ORDER BY dt RANGE BETWEEN INTERVAL '7' DAY PRECEDING"
                        + " AND CURRENT ROW) FROM w",
                "SELECT g, sum(x) AS t, rank() OVER (ORDER BY sum(x) DESC NULLS LAST, g) FROM w GROUP BY g",
                "SELECT a.id, row_number() OVER (PARTITION BY b.g ORDER BY a.id) FROM w a JOIN w b ON a.id = b.id + 1",
                "SELECT * FROM (SELECT id, g, row_number() OVER (PARTITION BY g ORDER BY d DESC NULLS LAST, id) AS r"
                        + " FROM w) t WHERE r <= 3",
                "SELECT id, x - lag(x) OVER (ORDER BY id) AS change FROM w")
                .map(sql -> dynamicTest(sql, () -> ResultComparison.assertAgrees(session, duck, sql, false)));
    }

    @TestFactory
    Stream<DynamicTest> orderedWindowQueriesAgreeWithDuckDB() {
        return Stream.of(
                "SELECT id, sum(x) OVER (PARTITION BY g ORDER BY id) AS total FROM w ORDER BY total DESC NULLS"
                        + " LAST, id LIMIT 20",
                "SELECT id, row_number() OVER (ORDER BY f DESC NULLS LAST, id) AS r FROM w ORDER BY r LIMIT 15")
                .map(sql -> dynamicTest(sql, () -> ResultComparison.assertAgrees(session, duck, sql, true)));
    }
}
