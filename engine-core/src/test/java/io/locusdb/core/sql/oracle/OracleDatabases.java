package io.locusdb.core.sql.oracle;

import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;

/**
 * The two databases a differential test compares, opened and closed together: LocusDB on the fake two-node
 * topology with one session, and DuckDB as the oracle.
 */
final class OracleDatabases implements AutoCloseable {
    final LocusDB locus;
    final Session session;
    final DuckOracle duck;

    private OracleDatabases(LocusDB locus, Session session, DuckOracle duck) {
        this.locus = locus;
        this.session = session;
        this.duck = duck;
    }

    static OracleDatabases open() {
        LocusDB locus = OracleTables.openLocus();
        return new OracleDatabases(locus, locus.connect(), DuckOracle.open());
    }

    /** Both with TPC-H at scale factor {@code sf} (in LocusDB two parts per table). */
    static OracleDatabases withTpch(double sf) {
        OracleDatabases databases = open();
        try (QueryResult r = databases.session.execute("LOAD TPCH SCALE " + sf + " PARTS 2")) {
            r.updateCount();
        }
        databases.duck.loadTpch(sf);
        return databases;
    }

    /** Runs a statement in LocusDB only. */
    void execute(String sql) {
        try (QueryResult r = session.execute(sql)) {
            r.updateCount();
        }
    }

    @Override
    public void close() {
        session.close();
        locus.close();
        duck.close();
    }
}
