package io.locusdb.server.net;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import java.util.Map;

/** Servers for tests: port 0, metrics off unless asked, data created through the embedded API first. */
final class TestServers {
    /** A small table with every type and NULLs: ids 1..5. */
    static final String[] ITEMS = {
            "CREATE TABLE items (id BIGINT, name VARCHAR(20), price DECIMAL(10,2), sold DATE, ok BOOLEAN, w DOUBLE,"
                    + " n INTEGER)",
            "INSERT INTO items VALUES (1, 'apple', 1.50, DATE '2024-01-02', TRUE, 0.5, 10),"
                    + " (2, 'pear', 2.25, DATE '2024-02-03', FALSE, 1.5, 20),"
                    + " (3, 'plum', NULL, NULL, NULL, NULL, NULL),"
                    + " (4, 'grüne Äpfel', 10.00, DATE '1999-12-31', TRUE, -2.0, -40),"
                    + " (5, '', 0.01, DATE '1970-01-01', FALSE, 1e300, 2147483647)"};

    private TestServers() {
    }

    static LocusServer start(Map<String, String> settings, String... setup) {
        LocusDB db = LocusDB.open(LocusConfig.defaults());
        try (Session s = db.connect()) {
            for (String sql : setup) {
                try (QueryResult r = s.execute(sql)) {
                    r.updateCount();
                }
            }
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        ServerConfig config = ServerConfig.defaults().with("port", "0").with("pg.port", "-1")
                .with("metrics.port", "-1").with(settings);
        return LocusServer.start(db, config);
    }

    static LocusServer start(String... setup) {
        return start(Map.of(), setup);
    }
}
