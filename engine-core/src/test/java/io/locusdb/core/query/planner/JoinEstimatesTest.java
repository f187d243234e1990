package io.locusdb.core.query.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.table.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Distinct values of a column, from the dictionaries of a table's parts. */
class JoinEstimatesTest {
    private static LocusDB db;

    @BeforeAll
    static void load() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null));
        try (Session session = db.connect()) {
            session.execute("LOAD TPCH SCALE 0.01 PARTS 2").close();
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static double distinct(String table, String column) {
        Table t = db.catalog().table(table);
        return JoinEstimates.tableDistinct(t, t.schema().indexOf(column));
    }

    @Test
    void anIntegerKeySpreadOverThePartsIsCountedOnce() {
        // Every part of lineitem holds nearly every one of the 100 suppliers: not 200 values.
        assertThat(distinct("lineitem", "l_suppkey")).isEqualTo(100);
        assertThat(distinct("supplier", "s_nationkey")).isEqualTo(25);
    }

    @Test
    void thePartitioningKeyIsCountedExactly() {
        assertThat(distinct("orders", "o_orderkey")).isEqualTo(15_000);
    }

    @Test
    void stringsWithoutAValueSpanStayAnUpperBound() {
        // Seven ship modes in each part: the parts' dictionary sizes add up.
        assertThat(distinct("lineitem", "l_shipmode")).isBetween(7.0, 14.0);
    }
}
