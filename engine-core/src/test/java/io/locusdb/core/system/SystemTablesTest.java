package io.locusdb.core.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.TestQueries;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.TestStorage;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The database's state through SQL, on the fake two-node topology. */
class SystemTablesTest {
    private static LocusDB db;

    @BeforeAll
    static void open() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null));
        try (Session s = db.connect()) {
            s.execute("CREATE TABLE t (k BIGINT, name VARCHAR) PARTITION BY HASH(k) PARTITIONS 2").close();
            StringBuilder insert = new StringBuilder("INSERT INTO t VALUES ");
            for (int k = 1; k <= 5000; k++) {
                insert.append(k == 1 ? "" : ", ").append("(").append(k).append(", 'n").append(k % 10).append("')");
            }
            s.execute(insert.toString()).close();
            s.execute("ALTER TABLE t MERGE PARTS TO NODE 1").close();
            s.execute("ALTER TABLE t PARTITION INTO 2 PARTS").close();
            s.execute("ALTER TABLE t MOVE PART 0 TO NODE 0").close();
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static List<List<Object>> rows(String sql) {
        return TestQueries.rows(db, sql);
    }

    @Test
    void tablesShowTheirPartsRowsAndPartitioning() {
        assertThat(rows("SELECT table_name, parts, row_count, partitioning FROM locus_tables WHERE table_name = 't'"))
                .containsExactly(List.of("t", 2, 5000L, "HASH(k) PARTITIONS 2"));
    }

    @Test
    void partsShowTheirNodeRowsAndWhereTheirPagesAre() {
        List<List<Object>> parts = rows("SELECT part, node, row_count, pages, pages_on_node_0, pages_on_node_1,"
                + " placement_unit FROM locus_parts WHERE table_name = 't' ORDER BY part");
        assertThat(parts).hasSize(2);
        assertThat(parts).extracting(r -> r.get(1)).containsExactly(0, 1);
        assertThat(parts.stream().mapToLong(r -> (Long) r.get(2)).sum()).isEqualTo(5000L);
        for (List<Object> part : parts) {
            int node = (Integer) part.get(1);
            assertThat((Long) part.get(3)).isPositive();
            assertThat(part.get(4 + node)).as("pages on the part's node").isEqualTo(part.get(3));
            assertThat(part.get(6)).isEqualTo("table t");
        }
    }

    @Test
    void partsBoundTheirIntegerPartitioningKeysIncludingDeltaRows() {
        try (Session s = db.connect()) {
            s.execute("CREATE TABLE ranged (id INTEGER, v VARCHAR) PARTITION BY RANGE(id) BOUNDS (25)").close();
            s.execute("INSERT INTO ranged VALUES (10, 'a'), (20, 'b'), (30, 'c'), (40, 'd'), (NULL, 'e')").close();
            s.execute("CREATE TABLE unkeyed (name VARCHAR) PARTITION BY HASH(name) PARTITIONS 2").close();
            s.execute("INSERT INTO unkeyed VALUES ('x')").close();
        }
        try {
            // Every key of a part lies within its bounds, and the bounds are keys the part holds.
            for (List<Object> part : rows("SELECT part, key_min, key_max FROM locus_parts WHERE table_name = 't'")) {
                List<List<Object>> actual = rows("/*+ PART(t " + part.get(0) + " OF 2) */ SELECT min(k), max(k)"
                        + " FROM t");
                assertThat(List.of(part.get(1), part.get(2))).isEqualTo(actual.getFirst());
            }
            List<List<Object>> ranged = rows("SELECT min(key_min), max(key_max), count(key_min), sum(key_nulls)"
                    + " FROM locus_parts WHERE table_name = 'ranged'");
            assertThat(ranged).containsExactly(List.of(10L, 40L, 2L, 1L));
            assertThat(rows("SELECT sum(key_nulls) FROM locus_parts WHERE table_name = 't'"))
                    .containsExactly(List.of(0L));
            assertThat(rows("SELECT key_min, key_max, key_nulls FROM locus_parts WHERE table_name = 'unkeyed'"))
                    .as("no integer key: no bounds").allSatisfy(r -> assertThat(r).containsOnlyNulls());
        } finally {
            try (Session s = db.connect()) {
                s.execute("DROP TABLE ranged").close();
                s.execute("DROP TABLE unkeyed").close();
            }
        }
    }

    @Test
    void columnsShowEncodings() {
        assertThat(rows("SELECT count(*) FROM locus_columns WHERE table_name = 't'"))
                .containsExactly(List.of(4L));
        assertThat(rows("SELECT DISTINCT column_type FROM locus_columns WHERE column_name = 'name'")).hasSize(1);
    }

    @Test
    void nodesShowUtilizationAndMemoryInUse() {
        List<List<Object>> nodes = rows("SELECT node, cpus, recent_threads, memory_in_use_bytes, parts"
                + " FROM locus_nodes ORDER BY node");
        assertThat(nodes).hasSize(2);
        assertThat(nodes).allSatisfy(n -> {
            assertThat((Integer) n.get(1)).isPositive();
            assertThat((Double) n.get(2)).isNotNegative();
            assertThat((Long) n.get(3)).isPositive();
        });
    }

    @Test
    void placerEventsListEveryPlacementChange() {
        List<List<Object>> events = rows("SELECT action, source, owner, is_group, parts_before, parts_after,"
                + " to_node, moved_by FROM locus_placer_events WHERE owner = 't' AND error IS NULL ORDER BY seq");
        assertThat(events).containsExactly(
                List.of("merge", "operator", "t", false, 2, 1, 1, "copy"),
                List.of("partition", "operator", "t", false, 1, 2, -1, "copy"),
                List.of("move", "operator", "t", false, 2, 2, 0, "copy"));
    }

    @Test
    void systemNamesAreReserved() {
        assertThatThrownBy(() -> rows("CREATE TABLE locus_parts (x INTEGER)"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.RESERVED_NAME));
    }
}
