package io.locusdb.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.placer.PlacerEvent;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.table.TablePart;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The operator's placement statements on the fake two-node topology: rows survive every change. */
class AlterPlacementTest {
    private static LocusDB db;

    @BeforeAll
    static void open() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null));
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static long execute(String sql) {
        try (Session s = db.connect(); QueryResult r = s.execute(sql)) {
            return r.updateCount();
        }
    }

    private static List<Integer> nodes(String table) {
        return db.catalog().find(table).orElseThrow().version().parts().stream().map(TablePart::homeNode).toList();
    }

    private static void fill(String table, int rows) {
        StringBuilder insert = new StringBuilder("INSERT INTO " + table + " VALUES ");
        for (int k = 1; k <= rows; k++) {
            insert.append(k == 1 ? "" : ", ").append("(").append(k).append(", ").append(k % 7).append(")");
        }
        execute(insert.toString());
    }

    private static List<List<Object>> summary(String table) {
        return TestQueries.rows(db, "SELECT count(*), sum(k), sum(v) FROM " + table);
    }

    @Test
    void movePartitionAndMergeATable() {
        execute("CREATE TABLE a (k BIGINT, v INTEGER) PARTITION BY HASH(k) PARTITIONS 2");
        fill("a", 1000);
        List<List<Object>> before = summary("a");
        assertThat(nodes("a")).containsExactly(0, 1);

        execute("ALTER TABLE a MOVE PART 1 TO NODE 0");
        assertThat(nodes("a")).containsExactly(0, 0);
        execute("ALTER TABLE a PARTITION INTO 8 PARTS");
        assertThat(nodes("a")).hasSize(8);
        assertThat(summary("a")).isEqualTo(before);
        execute("ALTER TABLE a MOVE TO NODE 1");
        assertThat(nodes("a")).containsOnly(1);
        assertThat(execute("ALTER TABLE a MERGE PARTS TO NODE 0")).as("DDL: no rows affected").isZero();
        assertThat(nodes("a")).containsExactly(0);
        assertThat(summary("a")).isEqualTo(before);
        assertThat(TestQueries.rows(db, "SELECT count(*) FROM a WHERE k = 777")).containsExactly(List.of(1L));
    }

    @Test
    void aTableGroupMovesAndSplitsAsAWhole() {
        execute("CREATE TABLE GROUP g");
        execute("CREATE TABLE g1 (k BIGINT, v INTEGER) PARTITION BY HASH(k) PARTITIONS 2 IN GROUP g");
        execute("CREATE TABLE g2 (k BIGINT, v INTEGER) PARTITION BY HASH(k) PARTITIONS 2 IN GROUP g");
        fill("g1", 300);
        fill("g2", 500);
        execute("ALTER TABLE GROUP g MOVE PART 0 TO NODE 1");
        assertThat(nodes("g1")).containsExactly(1, 1);
        assertThat(nodes("g2")).containsExactly(1, 1);
        execute("ALTER TABLE GROUP g PARTITION INTO 4 PARTS");
        assertThat(nodes("g1")).hasSize(4);
        assertThat(nodes("g2")).hasSize(4);
        assertThat(summary("g1")).containsExactly(List.of(300L, 45_150L, summary("g1").getFirst().get(2)));
        assertThat(summary("g2").getFirst().getFirst()).isEqualTo(500L);
        execute("ALTER TABLE GROUP g MERGE PARTS TO NODE 1");
        assertThat(nodes("g1")).containsExactly(1);
        assertThat(nodes("g2")).containsExactly(1);
        assertThat(summary("g1").getFirst().get(1)).isEqualTo(45_150L);
        assertThat(summary("g2").getFirst().getFirst()).isEqualTo(500L);
    }

    @Test
    void aRangeGroupSplitsAllItsTablesAtTheSameKeys() {
        execute("CREATE TABLE GROUP rg");
        execute("CREATE TABLE r1 (k BIGINT, v INTEGER) PARTITION BY RANGE(k) BOUNDS (500) IN GROUP rg");
        execute("CREATE TABLE r2 (k BIGINT, v INTEGER) PARTITION BY RANGE(k) BOUNDS (500) IN GROUP rg");
        fill("r1", 1000);
        StringBuilder skewed = new StringBuilder("INSERT INTO r2 VALUES ");
        for (int k = 1; k <= 300; k++) {
            skewed.append(k == 1 ? "" : ", ").append("(").append(k * k % 997).append(", 1)");
        }
        execute(skewed.toString());
        execute("ALTER TABLE GROUP rg PARTITION INTO 4 PARTS");

        List<Long> bounds = db.catalog().table("r1").version().rangeBounds();
        assertThat(bounds).hasSize(3).isSorted();
        assertThat(db.catalog().table("r2").version().rangeBounds()).as("co-partitioned").isEqualTo(bounds);
        assertThat(summary("r1").getFirst().getFirst()).isEqualTo(1000L);
        assertThat(summary("r2").getFirst().getFirst()).isEqualTo(300L);
        for (int p = 0; p < 4; p++) {
            long low = p == 0 ? Long.MIN_VALUE : bounds.get(p - 1);
            long high = p == 3 ? Long.MAX_VALUE : bounds.get(p);
            for (String t : List.of("r1", "r2")) {
                TablePart part = db.catalog().table(t).version().parts().get(p);
                for (long r = 0; r < part.rows(); r++) {
                    long k = (Long) part.column(0).boxedValue(r);
                    assertThat(k).as("%s part %d", t, p).isBetween(low, high - 1);
                }
            }
        }
    }

    @Test
    void everyOperatorChangeIsAPlacerEvent() {
        execute("CREATE TABLE e (k BIGINT, v INTEGER) PARTITION BY HASH(k) PARTITIONS 2");
        fill("e", 100);
        long before = db.placer().events().events().stream().mapToLong(PlacerEvent::sequence).max().orElse(0);
        execute("ALTER TABLE e MOVE PART 1 TO NODE 0");
        execute("ALTER TABLE e PARTITION INTO 4 PARTS");
        execute("ALTER TABLE e MERGE PARTS TO NODE 1");
        assertThatThrownBy(() -> execute("ALTER TABLE e MOVE PART 3 TO NODE 0")).isInstanceOf(LocusSqlException.class);

        List<PlacerEvent> events = db.placer().events().since(before).stream()
                .filter(ev -> ev.owner().equals("e")).toList();
        assertThat(events).extracting(PlacerEvent::action).containsExactly(PlacerEvent.Action.MOVE,
                PlacerEvent.Action.PARTITION, PlacerEvent.Action.MERGE);
        assertThat(events).allSatisfy(ev -> {
            assertThat(ev.source()).isEqualTo(PlacerEvent.OPERATOR);
            assertThat(ev.succeeded()).isTrue();
        });
        assertThat(events.get(0)).satisfies(ev -> {
            assertThat(ev.part()).isEqualTo(1);
            assertThat(ev.fromNode()).isEqualTo(1);
            assertThat(ev.toNode()).isZero();
        });
        assertThat(events.get(1).partsBefore()).isEqualTo(2);
        assertThat(events.get(1).partsAfter()).isEqualTo(4);
        assertThat(events.get(2).partsAfter()).isEqualTo(1);
        assertThat(events.get(2).toNode()).isEqualTo(1);
    }

    @Test
    void badRequestsAreRefusedWithTheReasonAndChangeNothing() {
        execute("CREATE TABLE b (k BIGINT, v INTEGER) PARTITION BY HASH(k) PARTITIONS 2");
        fill("b", 10);
        assertThatThrownBy(() -> execute("ALTER TABLE b MOVE PART 0 TO NODE 5"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.INVALID_PARAMETER));
        assertThatThrownBy(() -> execute("ALTER TABLE b MOVE PART 2 TO NODE 0"))
                .isInstanceOf(LocusSqlException.class).hasMessageContaining("parts 0..1");
        assertThatThrownBy(() -> execute("ALTER TABLE b PARTITION INTO 3 PARTS"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED));
        assertThatThrownBy(() -> execute("ALTER TABLE nosuch MERGE PARTS"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_TABLE));
        assertThatThrownBy(() -> execute("ALTER TABLE b ALTER COLUMN v TYPE BIGINT"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED));
        assertThat(nodes("b")).containsExactly(0, 1);
        assertThat(summary("b").getFirst().getFirst()).isEqualTo(10L);
    }
}
