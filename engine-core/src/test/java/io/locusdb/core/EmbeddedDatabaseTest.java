package io.locusdb.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.exec.stealing.StealingPolicies;
import io.locusdb.core.result.TaskRecord;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.type.ColumnType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The embedded API end to end: DDL, INSERT, LOAD, queries, parameters, streaming, EXPLAIN and errors. */
class EmbeddedDatabaseTest {
    private static LocusDB db;

    @BeforeAll
    static void open() {
        // iv-scan is memory-intensive as soon as it has been measured (threshold 1 MB/s): no inter-node stealing.
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes())
                .withExecutor(b -> b.pinWorkers(false).stealing(StealingPolicies.adaptive(1e6))));
        try (Session s = db.connect()) {
            s.execute("CREATE TABLE GROUP sales");
            s.execute("CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR(20), price DECIMAL(10,2), qty INTEGER,"
                    + " sold DATE, ok BOOLEAN) PARTITION BY HASH(id) PARTITIONS 4 IN GROUP sales");
            s.execute("INSERT INTO t VALUES (1, 'ada', 10.50, 3, DATE '2024-01-02', TRUE),"
                    + " (2, 'bob', -2.25, NULL, DATE '2024-02-29', FALSE), (3, NULL, NULL, 7, NULL, NULL),"
                    + " (4, 'ada', 100, 1, DATE '2023-12-31', TRUE)");
            s.execute("LOAD TPCH SCALE 0.01 PARTS 2");
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static List<List<Object>> rows(String sql, Object... parameters) {
        return TestQueries.rows(db, sql, parameters);
    }

    @Test
    void insertedRowsAreQueryableWithSqlNullSemantics() {
        assertThat(rows("SELECT id, name, price, qty, sold, ok FROM t WHERE id <= 2 ORDER BY id")).containsExactly(
                Arrays.asList(1L, "ada", new BigDecimal("10.50"), 3, LocalDate.of(2024, 1, 2), true),
                Arrays.asList(2L, "bob", new BigDecimal("-2.25"), null, LocalDate.of(2024, 2, 29), false));
        assertThat(rows("SELECT count(*), count(name), count(DISTINCT name), sum(price), min(sold) FROM t"))
                .containsExactly(Arrays.asList(4L, 3L, 2L, new BigDecimal("108.25"), LocalDate.of(2023, 12, 31)));
        assertThat(rows("SELECT id FROM t WHERE NOT (qty > 2) ORDER BY id")).as("NULL qty is neither")
                .containsExactly(List.of(4L));
        assertThat(rows("SELECT name, sum(qty) FROM t GROUP BY name ORDER BY name NULLS FIRST")).containsExactly(
                Arrays.asList(null, 7L), Arrays.asList("ada", 4L), Arrays.asList("bob", null));
    }

    @Test
    void expressionsCaseCastExtractAndDateArithmetic() {
        assertThat(rows("SELECT id, price * qty, CASE WHEN price > 50 THEN 'big' WHEN price > 0 THEN 'small'"
                + " ELSE 'none' END, CAST(price AS DOUBLE) / 2, EXTRACT(YEAR FROM sold),"
                + " sold + INTERVAL '1' MONTH FROM t WHERE id IN (1, 4) ORDER BY id")).containsExactly(
                Arrays.asList(1L, new BigDecimal("31.50"), "small", 5.25, 2024L, LocalDate.of(2024, 2, 2)),
                Arrays.asList(4L, new BigDecimal("100.00"), "big", 50.0, 2023L, LocalDate.of(2024, 1, 31)));
        assertThat(rows("SELECT id FROM t WHERE name LIKE 'a%' AND sold BETWEEN DATE '2024-01-01' AND"
                + " DATE '2024-12-31'")).containsExactly(List.of(1L));
    }

    @Test
    void preparedParametersArePushedDownAndRebindable() {
        String sql = "SELECT count(*) FROM lineitem WHERE l_quantity BETWEEN ? AND ?";
        long all = (Long) rows("SELECT count(*) FROM lineitem").getFirst().getFirst();
        long low = (Long) rows(sql, 1, 10).getFirst().getFirst();
        long high = (Long) rows(sql, new BigDecimal("10.5"), 50).getFirst().getFirst();
        assertThat(low + high).isEqualTo(all);
        try (Session s = db.connect()) {
            PreparedQuery q = s.prepare(sql);
            assertThat(q.parameterCount()).isEqualTo(2);
            assertThatThrownBy(q::execute).hasMessageContaining("parameter 1 is not set");
        }
    }

    @Test
    void orderByLimitOffset() {
        assertThat(rows("SELECT l_orderkey, l_linenumber FROM lineitem ORDER BY l_orderkey DESC, l_linenumber"
                + " LIMIT 3 OFFSET 1")).hasSize(3);
        assertThat(rows("SELECT id FROM t ORDER BY id LIMIT 0")).isEmpty();
        assertThat(rows("SELECT id FROM t ORDER BY id OFFSET 10")).isEmpty();
    }

    @Test
    void largeResultsStreamAndClosingEarlyStopsTheQuery() {
        try (Session s = db.connect(); QueryResult r = s.execute("SELECT l_comment FROM lineitem")) {
            ResultBatch first = r.nextBatch();
            assertThat(first).isNotNull();
            assertThat(first.rows()).isLessThanOrEqualTo(db.config().batchRows());
        }
        assertThat(rows("SELECT l_orderkey FROM lineitem LIMIT 5")).hasSize(5);
        try (Session s = db.connect()) {
            assertThat(s.execute("SELECT count(*) FROM t").toList()).containsExactly(List.of(4L));
        }
    }

    @Test
    void explainShowsEveryPartOnItsNodeAndScansRunThere() {
        List<String> plan = rows("EXPLAIN SELECT l_shipmode, sum(CAST(l_extendedprice AS DOUBLE)) FROM lineitem"
                + " WHERE l_extendedprice BETWEEN 1000 AND 20000 GROUP BY l_shipmode").stream()
                .map(r -> (String) r.getFirst()).toList();
        assertThat(plan).anySatisfy(l -> assertThat(l).contains("l_extendedprice >= 1000.00 AND l_extendedprice"
                + " <= 20000.00"));
        assertThat(plan).anySatisfy(l -> assertThat(l).contains("part 0:").contains("on node 0 -> iv-scan task on"
                + " node 0"));
        assertThat(plan).anySatisfy(l -> assertThat(l).contains("part 1:").contains("on node 1 -> iv-scan task on"
                + " node 1"));
        assertThat(rows("EXPLAIN SELECT count(*) FROM lineitem WHERE l_quantity < 5")).as("a bare count")
                .anySatisfy(r -> assertThat((String) r.getFirst()).contains("nothing is materialized"));
        try (Session s = db.connect()) {
            for (int warmUp = 0; warmUp < 3; warmUp++) {
                s.execute("SELECT count(*) FROM lineitem WHERE l_quantity < 10").toList();
            }
            for (int run = 0; run < 5; run++) {
                try (QueryResult r = s.execute("SELECT l_shipmode, sum(CAST(l_extendedprice AS DOUBLE))"
                        + " FROM lineitem WHERE l_extendedprice BETWEEN 1000 AND 20000 GROUP BY l_shipmode")) {
                    assertThat(r.toList()).hasSize(7);
                    List<TaskRecord> scans = r.tasks().stream().filter(t -> t.taskClass().equals("iv-scan"))
                            .toList();
                    assertThat(scans).hasSize(2).allSatisfy(t -> {
                        assertThat(t.ranOnNode()).as("part %d", t.part()).isEqualTo(t.homeNode());
                        assertThat(t.stolen()).isFalse();
                    });
                    assertThat(scans).extracting(TaskRecord::homeNode).containsExactlyInAnyOrder(0, 1);
                }
            }
        }
    }

    @Test
    void resultColumnsCarryNamesAndTypes() {
        try (Session s = db.connect(); QueryResult r = s.execute("SELECT id AS k, price, avg(qty) AS a FROM t"
                + " GROUP BY id, price")) {
            assertThat(r.columns()).extracting(c -> c.name()).containsExactly("k", "price", "a");
            assertThat(r.columns().get(1).type()).isEqualTo(ColumnType.decimal(10, 2));
            assertThat(r.columns().get(2).type()).isEqualTo(ColumnType.DOUBLE);
        }
    }

    @Test
    void errorsNameTheProblemWithSqlStateAndPosition() {
        try (Session s = db.connect()) {
            assertThatThrownBy(() -> s.execute("SELECT nope FROM t")).isInstanceOfSatisfying(
                    LocusSqlException.class, e -> {
                        assertThat(e.sqlState()).isEqualTo("42703");
                        assertThat(e.line()).isEqualTo(1);
                        assertThat(e.column()).isEqualTo(8);
                    });
            assertThatThrownBy(() -> s.execute("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY id)"
                    + " FILTER (WHERE id > 1) FROM t"))
                    .isInstanceOfSatisfying(LocusSqlException.class,
                            e -> assertThat(e.sqlState()).isEqualTo("0A000"));
            assertThatThrownBy(() -> s.execute("CREATE TABLE t (x INT)")).isInstanceOfSatisfying(
                    LocusSqlException.class, e -> assertThat(e.sqlState()).isEqualTo("42P07"));
            assertThatThrownBy(() -> s.execute("CREATE TABLE u (x BLOB)")).isInstanceOfSatisfying(
                    LocusSqlException.class, e -> {
                        assertThat(e.sqlState()).isEqualTo("0A000");
                        assertThat(e.column()).isEqualTo(19);
                    });
            assertThatThrownBy(() -> s.execute("INSERT INTO t VALUES (9, 'x', 1.5, 1, DATE 'nope', TRUE)"))
                    .isInstanceOfSatisfying(LocusSqlException.class,
                            e -> assertThat(e.sqlState()).isEqualTo("22018"));
            assertThatThrownBy(() -> s.execute("INSERT INTO t (name) VALUES ('no id')"))
                    .isInstanceOfSatisfying(LocusSqlException.class, e -> {
                        assertThat(e.sqlState()).isEqualTo("23502");
                        assertThat(e.getMessage()).contains("\"id\"");
                    });
            assertThatThrownBy(() -> s.execute("SELECT sum(l_extendedprice * l_extendedprice * l_extendedprice *"
                    + " l_extendedprice) FROM lineitem")).isInstanceOfSatisfying(LocusSqlException.class,
                    e -> assertThat(e.sqlState()).isIn("22003", "0A000"));
            assertThat(s.execute("SELECT count(*) FROM t").toList()).as("nothing was written by failed statements")
                    .containsExactly(List.of(4L));
        }
    }

    @Test
    void dropTableRemovesIt() {
        try (Session s = db.connect()) {
            s.execute("CREATE TABLE scratch (x INTEGER)");
            s.execute("INSERT INTO scratch VALUES (1), (2)");
            assertThat(s.execute("SELECT sum(x) FROM scratch").toList()).containsExactly(List.of(3L));
            s.execute("DROP TABLE scratch");
            assertThatThrownBy(() -> s.execute("SELECT * FROM scratch")).isInstanceOfSatisfying(
                    LocusSqlException.class, e -> assertThat(e.sqlState()).isEqualTo("42P01"));
            assertThat(s.execute("DROP TABLE IF EXISTS scratch").updateCount()).isZero();
        }
    }

    @Test
    void copyLoadsAFileIntoAnEmptyTableAndABadRowNamesItsLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path good = dir.resolve("items.csv");
        java.nio.file.Files.writeString(good, "id,label,amount\n1,one,1.25\n2,,2.50\n3,three,\n");
        java.nio.file.Path bad = dir.resolve("bad.csv");
        java.nio.file.Files.writeString(bad, "id,label,amount\n1,one,1.25\n2,two,lots\n");
        try (Session s = db.connect()) {
            s.execute("CREATE TABLE items (id BIGINT NOT NULL, label VARCHAR, amount DECIMAL(8,2))"
                    + " PARTITION BY HASH(id) PARTITIONS 2");
            assertThat(s.execute("COPY items FROM '" + good + "' WITH (FORMAT csv, HEADER true)").updateCount())
                    .isEqualTo(3);
            assertThat(rows("SELECT id, label, amount FROM items ORDER BY id")).containsExactly(
                    Arrays.asList(1L, "one", new BigDecimal("1.25")), Arrays.asList(2L, null,
                            new BigDecimal("2.50")), Arrays.asList(3L, "three", null));
            assertThatThrownBy(() -> s.execute("COPY items FROM '" + good + "'")).isInstanceOfSatisfying(
                    LocusSqlException.class, e -> assertThat(e.sqlState()).isEqualTo("0A000"));
            s.execute("CREATE TABLE items2 (id BIGINT NOT NULL, label VARCHAR, amount DECIMAL(8,2))");
            assertThatThrownBy(() -> s.execute("COPY items2 FROM '" + bad + "'")).isInstanceOfSatisfying(
                    LocusSqlException.class, e -> assertThat(e.getMessage()).contains("bad.csv:3").contains("amount"));
            assertThat(rows("SELECT count(*) FROM items2")).as("a failed COPY loads nothing")
                    .containsExactly(List.of(0L));
            s.execute("DROP TABLE items");
            s.execute("DROP TABLE items2");
        }
    }

    @Test
    void narrowingCastsTruncateOrFailAndIntegerArithmeticChecksItsRange() {
        assertThat(rows("SELECT CAST(name AS VARCHAR(2)) FROM t WHERE id = 1")).containsExactly(List.of("ad"));
        try (Session s = db.connect()) {
            assertThatThrownBy(() -> s.execute("SELECT CAST(price AS DECIMAL(3,2)) FROM t WHERE id = 4").toList())
                    .isInstanceOfSatisfying(LocusSqlException.class, e -> assertThat(e.sqlState()).isEqualTo("22003"));
            assertThatThrownBy(() -> s.execute("SELECT qty * 2147483647 FROM t WHERE id = 1").toList())
                    .isInstanceOfSatisfying(LocusSqlException.class, e -> assertThat(e.sqlState()).isEqualTo("22003"));
        }
    }

    @Test
    void caseEvaluatesAValueOnlyForTheRowsThatChooseIt() {
        try (Session s = db.connect()) {
            s.execute("CREATE TABLE codes (v VARCHAR)");
            s.execute("INSERT INTO codes VALUES ('12'), ('x'), (NULL)");
            assertThat(rows("SELECT CASE WHEN v <> 'x' THEN CAST(v AS INTEGER) ELSE -1 END AS n FROM codes"
                    + " ORDER BY n")).as("NULL <> 'x' is not true, so NULL takes the ELSE")
                    .containsExactly(List.of(-1), List.of(-1), List.of(12));
            assertThatThrownBy(() -> s.execute("SELECT CAST(v AS INTEGER) FROM codes").toList())
                    .isInstanceOfSatisfying(LocusSqlException.class, e -> {
                        assertThat(e.sqlState()).isEqualTo("22018");
                        assertThat(e.getMessage()).contains("'x'");
                    });
            s.execute("DROP TABLE codes");
        }
    }

    @Test
    void charValuesIgnoreTrailingBlanksEverywhere() {
        try (Session s = db.connect()) {
            s.execute("CREATE TABLE pads (x CHAR(5))");
            s.execute("INSERT INTO pads VALUES ('ab'), ('ab  '), ('b')");
            assertThat(rows("SELECT x, count(*) FROM pads GROUP BY x ORDER BY x")).containsExactly(
                    List.of("ab", 2L), List.of("b", 1L));
            assertThat(rows("SELECT count(*) FROM pads WHERE x = 'ab' OR x LIKE 'ab'")).containsExactly(List.of(2L));
            s.execute("DROP TABLE pads");
        }
    }

    @Test
    void preparedStatementsFollowTheTableByNameAndCommentsAreJustComments() {
        try (Session s = db.connect()) {
            s.execute("CREATE TABLE moving (x INTEGER)");
            s.execute("INSERT INTO moving VALUES (1)");
            PreparedQuery q = s.prepare("SELECT sum(x) FROM moving /* don't mind me */");
            assertThat(q.execute().toList()).containsExactly(List.of(1L));
            s.execute("DROP TABLE moving");
            s.execute("CREATE TABLE moving (x INTEGER)");
            s.execute("INSERT INTO moving VALUES (5), (6)");
            assertThat(q.execute().toList()).containsExactly(List.of(11L));
            s.execute("DROP TABLE moving");
            assertThatThrownBy(q::execute).isInstanceOfSatisfying(LocusSqlException.class,
                    e -> assertThat(e.sqlState()).isEqualTo("42P01"));
            assertThatThrownBy(() -> s.execute("INSERT INTO t VALUES (1.2.3, 'x', 1, 1, NULL, NULL)"))
                    .isInstanceOfSatisfying(LocusSqlException.class, e -> assertThat(e.sqlState()).isEqualTo("42601"));
        }
    }
}
