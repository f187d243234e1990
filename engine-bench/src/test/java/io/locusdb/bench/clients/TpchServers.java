package io.locusdb.bench.clients;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.server.net.LocusServer;
import io.locusdb.server.net.ServerConfig;

/** A server for tests: TPC-H in two parts on a fake 2-node topology, any free port, no metrics endpoint. */
final class TpchServers {
    private TpchServers() {
    }

    static LocusServer start(double scaleFactor) {
        LocusDB db = LocusDB.open(LocusConfig.of(Topologies.fake(2)).withExecutor(b -> b.pinWorkers(false)));
        try (Session s = db.connect(); QueryResult r = s.execute("LOAD TPCH SCALE " + scaleFactor + " PARTS 2")) {
            r.updateCount();
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        return LocusServer.start(db, ServerConfig.defaults().with("port", "0")
                .with("pg.port", "0").with("metrics.port", "-1"));
    }
}
