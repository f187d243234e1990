package io.locusdb.trino;

/** Two LocusDB servers, each half of every TPC-H table but nation and region (whole on the first). */
class TwoServersTest extends TrinoTpchTest {
    TwoServersTest() {
        super(2);
    }
}
