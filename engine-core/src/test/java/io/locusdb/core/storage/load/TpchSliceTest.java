package io.locusdb.core.storage.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.TestQueries;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.storage.TestStorage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code LOAD TPCH ... SLICE i OF k}: k databases that load one slice each hold TPC-H's rows once between them, also
 * when they divide their slices into different numbers of parts (servers of other sizes).
 */
class TpchSliceTest {
    private static final String[] TABLES = {"region", "nation", "supplier", "customer", "part", "partsupp", "orders",
            "lineitem"};
    private static final String FINGERPRINT = "SELECT count(*), sum(l_orderkey * 7 + l_linenumber),"
            + " sum(l_extendedprice) FROM lineitem";

    @Test
    void slicesHoldEveryRowOnce() {
        List<Object> whole;
        long[] counts = new long[TABLES.length];
        try (LocusDB db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()))) {
            execute(db, "LOAD TPCH SCALE 0.01 PARTS 2");
            whole = TestQueries.rows(db, FINGERPRINT).getFirst();
            for (int t = 0; t < TABLES.length; t++) {
                counts[t] = count(db, TABLES[t]);
            }
        }
        long[] sliced = new long[TABLES.length];
        long lineitems = 0;
        long keys = 0;
        List<Long> lowestOrderKeys = new ArrayList<>();
        for (int slice = 0; slice < 3; slice++) {
            try (LocusDB db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()))) {
                execute(db, "LOAD TPCH SCALE 0.01 PARTS " + (slice + 1) + " SLICE " + slice + " OF 3");
                for (int t = 0; t < TABLES.length; t++) {
                    sliced[t] += count(db, TABLES[t]);
                }
                List<Object> f = TestQueries.rows(db, FINGERPRINT).getFirst();
                lineitems += ((Number) f.get(0)).longValue();
                keys += ((Number) f.get(1)).longValue();
                assertThat(count(db, "nation")).isEqualTo(slice == 0 ? 25 : 0);
                lowestOrderKeys.add(((Number) TestQueries.rows(db, "SELECT min(o_orderkey) FROM orders").getFirst()
                        .getFirst()).longValue());
            }
        }
        assertThat(sliced).containsExactly(counts);
        assertThat(lineitems).isEqualTo(((Number) whole.get(0)).longValue());
        assertThat(keys).isEqualTo(((Number) whole.get(1)).longValue());
        assertThat(lowestOrderKeys).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void aSliceBeyondTheCountIsRefused() {
        try (LocusDB db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()))) {
            assertThatThrownBy(() -> execute(db, "LOAD TPCH SCALE 0.01 SLICE 3 OF 3"))
                    .isInstanceOf(LocusSqlException.class).hasMessageContaining("from 0 to 2");
        }
    }

    private static long count(LocusDB db, String table) {
        return ((Number) TestQueries.rows(db, "SELECT count(*) FROM " + table).getFirst().getFirst()).longValue();
    }

    private static void execute(LocusDB db, String sql) {
        try (Session s = db.connect()) {
            s.execute(sql).close();
        }
    }
}
