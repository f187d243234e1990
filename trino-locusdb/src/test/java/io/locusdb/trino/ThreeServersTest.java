package io.locusdb.trino;

/** Three LocusDB servers, each a third of every TPC-H table but nation and region (whole on the first). */
class ThreeServersTest extends TrinoTpchTest {
    ThreeServersTest() {
        super(3);
    }
}
