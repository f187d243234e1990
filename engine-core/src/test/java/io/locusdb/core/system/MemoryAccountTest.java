package io.locusdb.core.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.TestQueries;
import io.locusdb.core.storage.TestStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code locus_memory} and the memory columns of {@code locus_nodes}: the tables' bytes per node by kind (agreeing
 * with {@code locus_columns}), heap structures that grow with use (key indexes, delta rows, decoded values), the
 * JVM's areas and the process's resident memory.
 */
class MemoryAccountTest {
    private static LocusDB db;

    @BeforeAll
    static void open() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null));
        try (Session s = db.connect()) {
            s.execute("CREATE TABLE orders (id BIGINT, customer INTEGER, note VARCHAR(20))"
                    + " PARTITION BY HASH(id) PARTITIONS 2").close();
            s.execute("INSERT INTO orders SELECT g, CAST(g % 300 AS INTEGER), 'note ' || CAST(g % 700 AS VARCHAR)"
                    + " FROM generate_series(1, 20000) AS s(g)").close();
            s.execute("ALTER TABLE orders MERGE PARTS").close();
            s.execute("ALTER TABLE orders PARTITION INTO 2 PARTS").close();
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static List<List<Object>> rows(String sql) {
        return TestQueries.rows(db, sql);
    }

    private static long bytes(String area, int node) {
        return MemoryAccount.now(db.catalog()).total(area, node);
    }

    @Test
    void tableMemoryPerNodeIsTheBytesOfTheColumnsPlacedThere() {
        List<List<Object>> byNode = rows("SELECT p.node, sum(c.code_bytes), sum(c.dictionary_bytes)"
                + " FROM locus_columns c JOIN locus_parts p ON c.table_name = p.table_name AND c.part = p.part"
                + " GROUP BY p.node ORDER BY p.node");
        List<List<Object>> nodes = rows("SELECT node, code_bytes, dictionary_bytes, memory_in_use_bytes"
                + " FROM locus_nodes WHERE parts > 0 ORDER BY node");
        assertThat(nodes).hasSameSizeAs(byNode).isNotEmpty();
        for (int i = 0; i < nodes.size(); i++) {
            assertThat(nodes.get(i).subList(0, 3)).isEqualTo(byNode.get(i));
            long columns = (Long) nodes.get(i).get(1) + (Long) nodes.get(i).get(2);
            assertThat((Long) nodes.get(i).get(3)).as("mapped covers the columns").isGreaterThanOrEqualTo(columns);
        }
        assertThat(rows("SELECT sum(bytes) FROM locus_memory WHERE area IN ('column codes', 'column dictionaries')"))
                .containsExactly(List.of(rows("SELECT sum(code_bytes) + sum(dictionary_bytes) FROM locus_columns")
                        .getFirst().getFirst()));
    }

    @Test
    void heapStructuresThatQueriesAndWritesLeaveAreCounted() {
        try (Session s = db.connect()) {
            s.execute("CREATE TABLE grow (k BIGINT, name VARCHAR(10)) PARTITION BY HASH(k) PARTITIONS 2").close();
            s.execute("INSERT INTO grow SELECT g, 'n' || CAST(g AS VARCHAR) FROM generate_series(1, 1000) AS s(g)")
                    .close();
            s.execute("ALTER TABLE grow MERGE PARTS TO NODE 0").close();
            long indexesBefore = bytes(MemoryAccount.KEY_INDEXES, 0);
            long deltaBefore = bytes(MemoryAccount.DELTA_ROWS, 0);
            long decodedBefore = bytes(MemoryAccount.DECODED_VALUES, 0);
            s.execute("CREATE INDEX ON grow (k)").close();
            assertThat(rows("SELECT name FROM grow WHERE k = 17")).containsExactly(List.of("n17"));
            assertThat(bytes(MemoryAccount.KEY_INDEXES, 0)).as("the index built for the lookup")
                    .isGreaterThan(indexesBefore);
            s.execute("INSERT INTO grow VALUES (5001, 'late'), (5002, 'later')").close();
            assertThat(bytes(MemoryAccount.DELTA_ROWS, 0)).as("rows not merged yet").isGreaterThan(deltaBefore);
            assertThat(rows("SELECT count(DISTINCT name) FROM grow")).containsExactly(List.of(1002L));
            rows("SELECT name FROM grow ORDER BY k LIMIT 1000");
            assertThat(bytes(MemoryAccount.DECODED_VALUES, 0)).as("names kept decoded after output")
                    .isGreaterThan(decodedBefore);
            s.execute("DROP TABLE grow").close();
        }
    }

    @Test
    void theJvmsAreasAndTheProcessAreListed() {
        List<List<Object>> lines = rows("SELECT area, bytes, counted_as FROM locus_memory WHERE node IS NULL");
        assertThat(lines).extracting(l -> l.get(0)).contains(MemoryAccount.HEAP_COMMITTED, MemoryAccount.HEAP_USED,
                MemoryAccount.HEAP_LIVE, MemoryAccount.NON_HEAP, MemoryAccount.BUFFERS, MemoryAccount.THREAD_STACKS);
        MemoryAccount account = MemoryAccount.now(db.catalog());
        assertThat(account.total(MemoryAccount.HEAP_COMMITTED)).isGreaterThanOrEqualTo(
                account.total(MemoryAccount.HEAP_USED)).isPositive();
        assertThat(account.lines()).filteredOn(l -> l.detail().equals("Metaspace"))
                .singleElement().satisfies(l -> assertThat(l.bytes()).isPositive());
        assertThat(account.total(MemoryAccount.THREAD_STACKS)).isPositive();
    }

    @Test
    void residentMemoryIsReadFromTheProcessWhereLinuxTellsIt() {
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "needs /proc/self/status (Linux)");
        MemoryAccount account = MemoryAccount.now(db.catalog());
        long resident = account.total(MemoryAccount.RESIDENT);
        assertThat(resident).isPositive();
        assertThat(account.total(MemoryAccount.UNACCOUNTED)).isLessThan(resident);
        assertThat(rows("SELECT count(*) FROM locus_memory WHERE area = 'process resident' AND counted_as ="
                + " 'resident'")).containsExactly(List.of(1L));
    }
}
