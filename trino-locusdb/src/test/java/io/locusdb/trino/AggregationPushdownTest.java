package io.locusdb.trino;

import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.server.net.LocusServer;
import io.locusdb.server.net.ServerConfig;
import io.trino.testing.DistributedQueryRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * An aggregation reaches LocusDB only where no group can come from two splits (Trino would not merge them): a
 * table in one part on one server, or grouped by the column a table on one server is partitioned by, or by the
 * integer key of a table whose servers hold disjoint ranges of it and no NULL. Everywhere else Trino aggregates. Answers are those of the same catalog with pushdown off.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AggregationPushdownTest {
    private final List<LocusDB> databases = new ArrayList<>();
    private final List<LocusServer> servers = new ArrayList<>();
    private DistributedQueryRunner trino;

    @BeforeAll
    void start() throws Exception {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            LocusDB db = LocusDB.open(LocusConfig.defaults());
            databases.add(db);
            try (Session s = db.connect()) {
                if (i == 0) {
                    s.execute("CREATE TABLE keyed (k BIGINT, g VARCHAR, x INTEGER, d DATE, c CHAR(3))"
                            + " PARTITION BY HASH(k) PARTITIONS 3").close();
                    s.execute("CREATE TABLE single (g VARCHAR, x BIGINT)").close();
                    StringBuilder rows = new StringBuilder();
                    for (int r = 0; r < 3_000; r++) {
                        rows.append(r == 0 ? "" : ", ").append("(").append(r % 500).append(", 'g").append(r % 7)
                                .append("', ").append(r % 13 == 0 ? "NULL" : Integer.toString(r % 101))
                                .append(", DATE '2024-01-01' + ").append(r % 40).append(", 'c").append(r % 3)
                                .append("')");
                    }
                    s.execute("INSERT INTO keyed VALUES " + rows).close();
                    s.execute("INSERT INTO single VALUES ('a', 1), ('b', 2), ('a', NULL), (NULL, 5)").close();
                }
                s.execute("CREATE TABLE spread (k BIGINT, x INTEGER) PARTITION BY HASH(k) PARTITIONS 2").close();
                // Keys 0..99 on the first server, 100..199 on the second: each key in one part of one server.
                s.execute("CREATE TABLE sliced (k INTEGER, x BIGINT) PARTITION BY HASH(k) PARTITIONS 2").close();
                s.execute("CREATE TABLE sliced_nulls (k BIGINT, x BIGINT) PARTITION BY HASH(k) PARTITIONS 2")
                        .close();
                StringBuilder slice = new StringBuilder();
                for (int r = 0; r < 400; r++) {
                    slice.append(r == 0 ? "" : ", ").append("(").append(100 * i + r % 100).append(", ").append(r)
                            .append(")");
                }
                s.execute("INSERT INTO sliced VALUES " + slice).close();
                s.execute("INSERT INTO sliced_nulls VALUES " + slice + ", (NULL, 7)").close();
                s.execute("INSERT INTO spread VALUES (1, 10), (2, 20), (3, 30), (" + (4 + i) + ", 1)").close();
            }
            LocusServer server = LocusServer.start(db, ServerConfig.defaults().with("port", "0").with("pg.port", "-1")
                    .with("metrics.port", "-1"));
            servers.add(server);
            addresses.add("127.0.0.1:" + server.port());
        }
        trino = DistributedQueryRunner.builder(testSessionBuilder().setCatalog("locusdb").setSchema("default").build())
                .setWorkerCount(0).build();
        trino.installPlugin(new LocusPlugin());
        trino.createCatalog("locusdb", "locusdb", Map.of(CatalogSettings.SERVERS, String.join(",", addresses)));
        trino.createCatalog("plain", "locusdb", Map.of(CatalogSettings.SERVERS, String.join(",", addresses),
                CatalogSettings.PUSHDOWN, "false"));
    }

    @AfterAll
    void stop() {
        if (trino != null) {
            trino.close();
        }
        servers.forEach(LocusServer::close);
        databases.forEach(LocusDB::close);
    }

    @Test
    void groupsByThePartitioningKeyOfATableOnOneServerAreAggregatedThere() {
        assertPushed("SELECT k, count(*), count(x), min(d), max(x), count(DISTINCT g) FROM keyed GROUP BY k");
        assertPushed("SELECT k, g, max(x) FROM keyed WHERE d < DATE '2024-01-20' GROUP BY k, g");
        assertPushed("SELECT count(*), sum(x), count(g) FROM single");
        assertPushed("SELECT g, count(x) FROM single GROUP BY g");
        // Across servers too, where the servers' key ranges do not overlap.
        assertPushed("SELECT k, count(*), sum(x) FROM sliced GROUP BY k");
        // The groups come from LocusDB, Trino counts them: the splits send only their number of groups.
        assertNotPushed("SELECT count(*) FROM (SELECT k FROM keyed WHERE x > 10 GROUP BY k)");
    }

    @Test
    void otherAggregationsAreLeftToTrino() {
        assertNotPushed("SELECT g, count(*), sum(x) FROM keyed GROUP BY g");
        assertNotPushed("SELECT count(*), max(x) FROM keyed");
        assertNotPushed("SELECT k, sum(x) FROM spread GROUP BY k");
        // A NULL key on each server: the NULL group would come from two splits.
        assertNotPushed("SELECT k, count(*), sum(x) FROM sliced_nulls GROUP BY k");
        assertNotPushed("SELECT k, avg(x) FROM keyed GROUP BY k");
        assertNotPushed("SELECT k, max(c) FROM keyed GROUP BY k");
        // LocusDB orders strings by UTF-16 units, Trino by code points.
        assertNotPushed("SELECT k, max(g) FROM keyed GROUP BY k");
        assertNotPushed("SELECT k, count(*) FILTER (WHERE x > 50) FROM keyed GROUP BY k");
    }

    /** A plan line that is an aggregation of Trino's (not the table handle's text, which names its own). */
    private static final Pattern AGGREGATION_NODE = Pattern.compile("(?m)^[\\s│├└─]*Aggregate\\[");

    private void assertPushed(String sql) {
        String plan = plan(sql);
        assertThat(AGGREGATION_NODE.matcher(plan).find()).as("Trino aggregates %s:%n%s", sql, plan).isFalse();
        assertAnswersAsWithoutPushdown(sql);
    }

    private void assertNotPushed(String sql) {
        String plan = plan(sql);
        assertThat(AGGREGATION_NODE.matcher(plan).find()).as("Trino aggregates %s:%n%s", sql, plan).isTrue();
        assertAnswersAsWithoutPushdown(sql);
    }

    private String plan(String sql) {
        return (String) trino.execute("EXPLAIN " + sql).getOnlyValue();
    }

    private void assertAnswersAsWithoutPushdown(String sql) {
        assertThat(TpchQueries.canonical(trino.execute(sql))).as(sql).isEqualTo(TpchQueries.canonical(
                trino.execute(testSessionBuilder().setCatalog("plain").setSchema("default").build(), sql)))
                .isNotEmpty();
    }
}
