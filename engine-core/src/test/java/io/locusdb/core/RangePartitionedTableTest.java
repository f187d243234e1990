package io.locusdb.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.result.QueryResult;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.table.Table;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** RANGE-partitioned tables made with SQL: bounds from the statement, rows routed to the part of their key. */
class RangePartitionedTableTest {
    private static LocusDB db;

    @BeforeAll
    static void open() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()));
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static void execute(String sql) {
        try (Session s = db.connect(); QueryResult r = s.execute(sql)) {
            r.updateCount();
        }
    }

    /** Rows per part, main and delta, as a writer that committed them sees. */
    private static List<Long> rowsPerPart(String table) {
        Table t = db.catalog().find(table).orElseThrow();
        return t.version().parts().stream()
                .map(p -> p.rows() + p.delta().visibleRows(Long.MAX_VALUE - 1)).toList();
    }

    @Test
    void rowsGoToThePartOfTheirKey() {
        execute("CREATE TABLE r (k INTEGER, v VARCHAR) PARTITION BY RANGE(k) BOUNDS (10, 20)");
        execute("INSERT INTO r VALUES (5, 'a'), (15, 'b'), (25, 'c'), (10, 'd'), (20, 'e'), (NULL, 'f'), (-3, 'g')");
        // Part 0 below 10 (and NULL keys), part 1 from 10, part 2 from 20.
        assertThat(rowsPerPart("r")).containsExactly(3L, 2L, 2L);
        assertThat(TestQueries.rows(db, "SELECT count(*), sum(k) FROM r WHERE k >= 10"))
                .containsExactly(List.of(4L, 70L));
        assertThat(TestQueries.rows(db, "SELECT v FROM r WHERE k < 10 OR k IS NULL ORDER BY v"))
                .containsExactly(List.of("a"), List.of("f"), List.of("g"));
    }

    @Test
    void boundsOfDatesAndDecimalsAreValuesOfTheColumnsType() {
        execute("CREATE TABLE rd (d DATE, x DECIMAL(10,2)) PARTITION BY RANGE(d) PARTITIONS 2"
                + " BOUNDS (DATE '1995-01-01')");
        execute("INSERT INTO rd VALUES (DATE '1994-12-31', 1.5), (DATE '1995-01-01', 2.25)");
        assertThat(rowsPerPart("rd")).containsExactly(1L, 1L);
        execute("CREATE TABLE rx (x DECIMAL(10,2)) PARTITION BY RANGE(x) BOUNDS (0, 99.5)");
        execute("INSERT INTO rx VALUES (-0.01), (0), (99.49), (99.5), (1000)");
        assertThat(rowsPerPart("rx")).containsExactly(1L, 2L, 2L);
        assertThat(TestQueries.rows(db, "SELECT sum(x) FROM rx"))
                .containsExactly(Arrays.asList((Object) new BigDecimal("1198.98")));
    }

    @Test
    void aRangeTableWithoutBoundsOrWithBadOnesIsRefusedWithTheReason() {
        assertThatThrownBy(() -> execute("CREATE TABLE bad1 (k INTEGER) PARTITION BY RANGE(k) PARTITIONS 3"))
                .isInstanceOfSatisfying(LocusSqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.SYNTAX_ERROR);
                    assertThat(e.getMessage()).contains("BOUNDS");
                });
        assertThatThrownBy(() -> execute("CREATE TABLE bad2 (k INTEGER) PARTITION BY RANGE(k) PARTITIONS 3"
                + " BOUNDS (5)")).isInstanceOf(LocusSqlException.class).hasMessageContaining("need 2 bounds");
        assertThatThrownBy(() -> execute("CREATE TABLE bad3 (k INTEGER) PARTITION BY RANGE(k) BOUNDS (5, 5)"))
                .isInstanceOf(LocusSqlException.class).hasMessageContaining("ascend");
        assertThatThrownBy(() -> execute("CREATE TABLE bad4 (s VARCHAR) PARTITION BY RANGE(s) BOUNDS ('m')"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED));
        assertThat(db.catalog().find("bad1")).isEmpty();
        assertThat(db.catalog().find("bad3")).isEmpty();
        // One part needs no bounds.
        execute("CREATE TABLE one (k INTEGER) PARTITION BY RANGE(k) PARTITIONS 1");
        assertThat(rowsPerPart("one")).containsExactly(0L);
    }
}
