package io.locusdb.bench.seed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.bench.sim.Scenario;
import io.locusdb.bench.sim.ScenarioParser;
import io.locusdb.bench.sim.SimResult;
import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.exec.stealing.StealingPolicies;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.server.net.LocusServer;
import io.locusdb.server.net.ServerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class SeedWorkloadRunTest {
    private static final String SCENARIO = """
            name tiny
            machine 4x15
            seconds 4
            rows 20000
            table TBL1 node 0
            table TBL2 node 3
            table TBL3 nodes 0,1
            clients 1 a TBL1 selectivity 0.01
            clients 1 b TBL2 selectivity 0.1
            clients 1 c TBL1,TBL2 selectivity 0.01 from 1
            placer on from 2
            stealing adaptive
            """;

    @Test
    void tables_are_generated_and_placed_with_scenario_nodes_folded_onto_the_engines() {
        Scenario s = ScenarioParser.parse(SCENARIO, "tiny", 0);
        try (EmbeddedTarget target = new EmbeddedTarget(Topologies.fake(2), StealingPolicies.always());
             Session session = target.database().connect()) {
            LocusDB db = target.database();
            target.load(s, s.rows(), 7);
            assertThat(nodes(db, "TBL1")).containsExactly(0);
            assertThat(nodes(db, "TBL2")).containsExactly(1);
            assertThat(nodes(db, "TBL3")).containsExactly(0, 1);
            try (QueryResult r = session.execute("SELECT count(*), count(DISTINCT ID), min(COL1), max(COL1),"
                    + " max(COL8) FROM TBL3")) {
                List<Object> row = r.toList().getFirst();
                assertThat(row.get(0)).isEqualTo(20000L);
                assertThat(row.get(1)).isEqualTo(20000L);
                assertThat(((Number) row.get(2)).longValue()).isNotNegative();
                assertThat(((Number) row.get(3)).longValue()).isLessThan(1L << 17);
                assertThat(((Number) row.get(4)).longValue()).isGreaterThanOrEqualTo(1L << 17).isLessThan(1L << 24);
            }
        }
    }

    @Test
    void a_scenario_runs_on_the_real_engine_with_every_client_group_completing_queries() throws Exception {
        Scenario s = ScenarioParser.parse(SCENARIO, "tiny", 0);
        SimResult r;
        try (EmbeddedTarget target = new EmbeddedTarget(Topologies.fake(2), StealingPolicies.always())) {
            r = SeedWorkloadRun.run(s, target, new SeedWorkloadRun.Settings(1, 1, 1, 3), warning -> { });
        }
        assertThat(r.seconds()).isEqualTo(4);
        for (int g = 0; g < 3; g++) {
            double sum = 0;
            for (int second = 0; second < 4; second++) {
                sum += r.completions()[second][g];
            }
            assertThat(sum).as("queries of client group %d", g).isPositive();
        }
        double joinsInFirstSecond = r.completions()[0][2];
        assertThat(joinsInFirstSecond).as("the join clients start at second 1").isZero();
        assertThat(r.classThroughput()).isNotEmpty();
    }

    @Test
    void a_scenario_with_its_own_tables_and_templates_is_refused_before_anything_is_loaded() throws Exception {
        Scenario tpch = ScenarioParser.load("fig16", 0);
        try (EmbeddedTarget target = new EmbeddedTarget(Topologies.fake(2), StealingPolicies.always())) {
            assertThatThrownBy(() -> SeedWorkloadRun.run(tpch, target, new SeedWorkloadRun.Settings(1, 1, 1, 3),
                    warning -> { })).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fig16")
                    .hasMessageContaining("./locus simulate");
            assertThat(target.database().catalog().tables()).isEmpty();
        }
    }

    @Test
    void the_same_scenario_runs_against_a_server_over_jdbc() throws Exception {
        Scenario s = ScenarioParser.parse(SCENARIO, "tiny", 0);
        LocusDB db = LocusDB.open(LocusConfig.of(Topologies.fake(2)).withExecutor(b -> b.pinWorkers(false)));
        List<String> warnings = new ArrayList<>();
        SimResult r;
        try (LocusServer server = LocusServer.start(db, ServerConfig.defaults().with("port", "0").with("pg.port", "-1")
                .with("metrics.port", "-1"));
             ServerTarget target = new ServerTarget(server.jdbcUrl(), new Properties())) {
            assertThat(target.nodes()).isEqualTo(2);
            r = SeedWorkloadRun.run(s, target, new SeedWorkloadRun.Settings(1, 1, 1, 3), warnings::add);
            assertThat(db.catalog().table("TBL3").version().parts()).extracting(TablePart::homeNode)
                    .containsExactly(0, 1);
        } finally {
            db.close();
        }
        for (int g = 0; g < 3; g++) {
            double sum = 0;
            for (int second = 0; second < 4; second++) {
                sum += r.completions()[second][g];
            }
            assertThat(sum).as("queries of client group %d", g).isPositive();
        }
        assertThat(warnings).singleElement().asString().contains("runs as the server is configured");
    }

    private static List<Integer> nodes(LocusDB db, String table) {
        return db.catalog().table(table).version().parts().stream().map(TablePart::homeNode).toList();
    }
}
