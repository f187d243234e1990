package io.locusdb.trino;

import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;

import io.trino.plugin.tpch.TpchPlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A LocusDB server killed (SIGKILL) while Trino queries it: the queries it was part of fail with an error naming
 * that server, none returns a wrong answer, and once the server is back the next query is answered in full.
 */
class ServerFailureTest {
    private static final String QUERY = "SELECT count(*), sum(l_extendedprice), count(DISTINCT o_custkey) FROM"
            + " lineitem JOIN orders ON l_orderkey = o_orderkey";

    @Test
    void aKilledServerFailsItsQueriesByNameAndNoAnswerIsWrong(@TempDir Path dir) throws Exception {
        try (ServerProcess a = ServerProcess.start(dir.resolve("a"));
             ServerProcess b = ServerProcess.start(dir.resolve("b"));
             DistributedQueryRunner trino = DistributedQueryRunner.builder(testSessionBuilder()
                     .setCatalog("locusdb").setSchema("default").build()).setWorkerCount(0).build()) {
            a.execute("LOAD TPCH SCALE 0.01 PARTS 2 SLICE 0 OF 2");
            b.execute("LOAD TPCH SCALE 0.01 PARTS 2 SLICE 1 OF 2");
            trino.installPlugin(new LocusPlugin());
            trino.createCatalog("locusdb", "locusdb", Map.of(CatalogSettings.SERVERS,
                    a.address() + "," + b.address()));
            trino.installPlugin(new TpchPlugin());
            trino.createCatalog("tpch", "tpch", Map.of("tpch.column-naming", "STANDARD",
                    "tpch.double-type-mapping", "DECIMAL"));
            List<MaterializedRow> expected = trino.execute(testSessionBuilder().setCatalog("tpch").setSchema("tiny")
                    .build(), QUERY).getMaterializedRows();
            assertThat(trino.execute(QUERY).getMaterializedRows()).isEqualTo(expected);

            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger answered = new AtomicInteger();
            List<String> wrong = new CopyOnWriteArrayList<>();
            List<String> errors = new CopyOnWriteArrayList<>();
            Thread load = Thread.ofPlatform().start(() -> {
                while (running.get()) {
                    try {
                        List<MaterializedRow> rows = trino.execute(QUERY).getMaterializedRows();
                        if (rows.equals(expected)) {
                            answered.incrementAndGet();
                        } else {
                            wrong.add(rows.toString());
                        }
                    } catch (RuntimeException e) {
                        errors.add(String.valueOf(e.getMessage()));
                    }
                }
            });
            while (answered.get() < 3) {
                Thread.sleep(50);
            }
            b.kill();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (errors.size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            running.set(false);
            load.join();

            assertThat(wrong).as("wrong answers").isEmpty();
            assertThat(errors).as("queries that failed after the kill").hasSizeGreaterThanOrEqualTo(3)
                    .allSatisfy(message -> assertThat(message).contains("LocusDB server " + b.address()));

            b.restart();
            assertThat(trino.execute(QUERY).getMaterializedRows()).as("the first query after the restart")
                    .isEqualTo(expected);
        }
    }
}
