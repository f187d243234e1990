package io.locusdb.core.query.join;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.TestStorage;
import org.junit.jupiter.api.Test;

class JoinSmokeTest {
    @Test
    void smoke() throws Exception {
        try (LocusDB db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes())); Session s = db.connect()) {
            s.execute("LOAD TPCH SCALE 0.01 PARTS 2").close();
            Class<?> c = Class.forName("io.locusdb.core.sql.oracle.TpchJoinOracleTest");
            java.lang.reflect.Field f = c.getDeclaredField("QUERIES");
            f.setAccessible(true);
            @SuppressWarnings("unchecked")
            java.util.Map<String, String> queries = (java.util.Map<String, String>) f.get(null);
            for (var q : queries.entrySet()) {
                try (QueryResult r = s.execute("EXPLAIN " + q.getValue())) {
                    System.out.println(q.getKey());
                    for (var row : r.toList()) {
                        String line = (String) row.get(0);
                        if (line.contains("HashJoin") || line.contains("Scan ") || line.contains("build:")) {
                            System.out.println("   " + line);
                        }
                    }
                } catch (RuntimeException e) {
                    System.out.println(q.getKey() + " !! " + e);
                }
            }
        }
    }
}
