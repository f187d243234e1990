package io.locusdb.core.sql.oracle;

import io.locusdb.core.LocusDB;
import io.locusdb.core.storage.table.Table;
import java.util.ArrayList;
import java.util.List;

/**
 * The databases of the differential tests, loaded once per test class: LocusDB on the fake two-node topology and
 * DuckDB, both holding {@code mixed} (two parts plus three delta commits), {@code mixed_empty}, and lineitem at
 * SF 0.01 in two parts plus {@value OracleTables#LINEITEM_DELTA_ROWS} delta rows.
 */
final class DifferentialFixture implements AutoCloseable {
    static final long DATA_SEED = 20_250_601L;
    static final long QUERY_SEED = 4_242L;
    static final double LINEITEM_SF = 0.01;
    static final int LINEITEM_PARTS = 2;
    static final int MIXED_QUERIES = 1000;
    static final int LINEITEM_QUERIES = 150;

    final LocusDB locus;
    final DuckOracle duck;
    final OracleTables.MixedData mixed;
    final List<Object[]> lineitemDeltas;
    final Table mixedTable;
    final Table lineitemTable;

    private DifferentialFixture(LocusDB locus, DuckOracle duck, OracleTables.MixedData mixed,
                                List<Object[]> lineitemDeltas, Table mixedTable, Table lineitemTable) {
        this.locus = locus;
        this.duck = duck;
        this.mixed = mixed;
        this.lineitemDeltas = lineitemDeltas;
        this.mixedTable = mixedTable;
        this.lineitemTable = lineitemTable;
    }

    static DifferentialFixture open() {
        LocusDB locus = OracleTables.openLocus();
        DuckOracle duck = null;
        try {
            duck = DuckOracle.open();
            OracleTables.MixedData mixed = OracleTables.mixedData(DATA_SEED);
            Table mixedTable = OracleTables.registerMixed(locus, mixed);
            OracleTables.registerMixedEmpty(locus);
            OracleTables.loadMixed(duck, mixed);

            List<Object[]> deltas = OracleTables.lineitemDeltaRows(LINEITEM_SF, DATA_SEED);
            Table lineitem = OracleTables.registerLineitem(locus, LINEITEM_SF, LINEITEM_PARTS);
            lineitem.insert(OracleTables.physicalRows(lineitem.schema(), deltas));
            duck.loadLineitem(LINEITEM_SF);
            duck.insert("lineitem", OracleTables.lineitemSchema(), deltas);
            return new DifferentialFixture(locus, duck, mixed, deltas, mixedTable, lineitem);
        } catch (RuntimeException | Error e) {
            locus.close();
            if (duck != null) {
                duck.close();
            }
            throw e;
        }
    }

    /** The generated queries: the same list on every run. */
    List<QueryGenerator.GeneratedQuery> queries() {
        return generate(mixed);
    }

    static List<QueryGenerator.GeneratedQuery> generate(OracleTables.MixedData mixed) {
        QueryGenerator generator = new QueryGenerator(QUERY_SEED);
        long lineitemRows = (long) (6_001_215 * LINEITEM_SF) + OracleTables.LINEITEM_DELTA_ROWS;
        List<QueryGenerator.GeneratedQuery> queries = new ArrayList<>();
        queries.addAll(generator.generate(QueryGenerator.mixedModel(mixed), MIXED_QUERIES, 1));
        queries.addAll(generator.generate(QueryGenerator.lineitemModel(LINEITEM_SF, lineitemRows), LINEITEM_QUERIES,
                MIXED_QUERIES + 1));
        return queries;
    }

    @Override
    public void close() {
        try {
            locus.close();
        } finally {
            duck.close();
        }
    }
}
