package io.locusdb.trino;

import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.server.net.LocusServer;
import io.locusdb.server.net.ServerConfig;
import io.trino.plugin.tpch.TpchPlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * LocusDB servers, each holding one slice of TPC-H SF 0.01 in two parts, as one Trino catalog: every TPC-H query
 * through Trino (a coordinator and a worker, so handles and splits travel as JSON) gives the answers of Trino's own
 * tpch catalog, which generates the same rows; every server's parts are read; filters reach LocusDB. Run with two
 * and with three servers ({@link TwoServersTest}, {@link ThreeServersTest}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TrinoTpchTest {
    private final List<LocusDB> databases = new ArrayList<>();
    private final List<LocusServer> servers = new ArrayList<>();
    private DistributedQueryRunner trino;
    private TpchDuck duck;

    private final int serverCount;

    TrinoTpchTest(int serverCount) {
        this.serverCount = serverCount;
    }

    @BeforeAll
    void start() throws Exception {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < serverCount; i++) {
            LocusDB db = LocusDB.open(LocusConfig.defaults());
            databases.add(db);
            try (Session s = db.connect()) {
                s.execute("LOAD TPCH SCALE 0.01 PARTS 2 SLICE " + i + " OF " + serverCount).close();
            }
            LocusServer server = LocusServer.start(db, ServerConfig.defaults().with("port", "0").with("pg.port", "-1")
                    .with("metrics.port", "-1"));
            servers.add(server);
            addresses.add("127.0.0.1:" + server.port());
        }
        trino = DistributedQueryRunner.builder(testSessionBuilder().setCatalog("locusdb").setSchema("default").build())
                .setWorkerCount(1).build();
        trino.installPlugin(new LocusPlugin());
        trino.createCatalog("locusdb", "locusdb", Map.of(CatalogSettings.SERVERS, String.join(",", addresses)));
        trino.createCatalog("unpartitioned", "locusdb", Map.of(CatalogSettings.SERVERS, String.join(",", addresses),
                CatalogSettings.PARTITIONING, "false"));
        trino.installPlugin(new TpchPlugin());
        trino.createCatalog("tpch", "tpch", Map.of("tpch.column-naming", "STANDARD",
                "tpch.double-type-mapping", "DECIMAL"));
        duck = new TpchDuck(0.01);
    }

    @AfterAll
    void stop() throws SQLException {
        if (duck != null) {
            duck.close();
        }
        if (trino != null) {
            trino.close();
        }
        servers.forEach(LocusServer::close);
        databases.forEach(LocusDB::close);
    }

    @ParameterizedTest(name = "Q{0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22})
    void everyTpchQueryGivesDuckDbsAnswersAndThoseOfTrinosTpchCatalog(int query) throws SQLException {
        String sql = TpchQueries.text(query);
        MaterializedResult ours = trino.execute(sql);
        MaterializedResult theirs = trino.execute(testSessionBuilder().setCatalog("tpch").setSchema("tiny").build(),
                sql);
        assertThat(TpchQueries.canonical(ours)).as("Q%d against Trino's tpch catalog", query)
                .isEqualTo(TpchQueries.canonical(theirs));
        // DuckDB's AVG of a decimal is a double, Trino's a decimal of the argument's scale: 2 places.
        assertThat(TpchQueries.canonical(ours, 2)).as("Q%d against DuckDB", query)
                .isEqualTo(duck.answer(sql, 2));
    }

    @Test
    void aTableIsTheUnionOfTheServersPartsAndEachServerReadsItsOwn() {
        assertThat(trino.execute("SELECT count(*), sum(l_orderkey) FROM lineitem").getMaterializedRows())
                .isEqualTo(trino.execute(testSessionBuilder().setCatalog("tpch").setSchema("tiny").build(),
                        "SELECT count(*), sum(l_orderkey) FROM lineitem").getMaterializedRows());
        for (LocusDB db : databases) {
            try (Session s = db.connect(); QueryResult r = s.execute("SELECT sum(row_count) FROM locus_query_log"
                    + " WHERE statement LIKE '%lineitem%' AND statement NOT LIKE '%locus_%'")) {
                assertThat(r.next()).isTrue();
                assertThat(r.getLong(0)).as("rows this server sent of lineitem").isGreaterThan(0);
            }
        }
    }

    @Test
    void coPartitionedTablesJoinOnTheirGroupKeyWithoutAnExchange() {
        String sql = "SELECT o_orderpriority, count(*), sum(l_quantity) FROM orders JOIN lineitem"
                + " ON o_orderkey = l_orderkey WHERE l_commitdate < l_receiptdate GROUP BY o_orderpriority";
        String join = joinFragment(trino.getDefaultSession(), sql);
        assertThat(join).as("the fragment that joins reads both tables itself")
                .contains("table=orders,").contains("table=lineitem,").doesNotContain("RemoteSource");
        assertThat(joinFragment(testSessionBuilder().setCatalog("unpartitioned").setSchema("default").build(), sql))
                .as("without the partitioning, rows are exchanged before the join").contains("RemoteSource");
        assertThat(TpchQueries.canonical(trino.execute(sql))).isEqualTo(TpchQueries.canonical(trino.execute(
                testSessionBuilder().setCatalog("tpch").setSchema("tiny").build(), sql)));
    }

    @Test
    void aScanWhoseRowsAreExchangedAnywayIsNotReadBucketByBucket() {
        // Grouping by something else than the key: the partitioning buys nothing and would fix each split to a task.
        String plan = (String) trino.execute("EXPLAIN (TYPE DISTRIBUTED) SELECT l_returnflag, count(*) FROM lineitem"
                + " GROUP BY l_returnflag").getOnlyValue();
        assertThat(plan).doesNotContain("LocusPartitioningHandle").contains("[SOURCE]");
        // Grouping by the key with an aggregate LocusDB does not compute for Trino (AVG): grouped bucket by bucket.
        String byKey = (String) trino.execute("EXPLAIN (TYPE DISTRIBUTED) SELECT l_orderkey, avg(l_quantity) FROM"
                + " lineitem GROUP BY l_orderkey").getOnlyValue();
        assertThat(byKey).contains("LocusPartitioningHandle");
        // With COUNT the whole grouping is LocusDB's: every order key lives in one part of one server.
        String pushed = (String) trino.execute("EXPLAIN SELECT l_orderkey, count(*) FROM lineitem GROUP BY"
                + " l_orderkey").getOnlyValue();
        assertThat(pushed).contains("groupBy=[l_orderkey]").doesNotContainPattern("(?m)^[\\s│├└─]*Aggregate\\[");
    }

    @Test
    void rowsOfOtherTablesAreSentToTheBucketsThatHoldTheirKeys() {
        // customer is partitioned by c_custkey, orders is not: orders' rows go to customer's buckets by key.
        String sql = "SELECT c_mktsegment, count(*), sum(o_totalprice) FROM customer JOIN orders"
                + " ON c_custkey = o_custkey GROUP BY c_mktsegment";
        assertThat(TpchQueries.canonical(trino.execute(sql))).isEqualTo(TpchQueries.canonical(trino.execute(
                testSessionBuilder().setCatalog("tpch").setSchema("tiny").build(), sql)));
        String grouped = "SELECT o_orderkey, count(*) FROM lineitem JOIN orders ON l_orderkey = o_orderkey"
                + " GROUP BY o_orderkey ORDER BY 2 DESC, 1 LIMIT 5";
        assertThat(TpchQueries.canonical(trino.execute(grouped))).isEqualTo(TpchQueries.canonical(trino.execute(
                testSessionBuilder().setCatalog("tpch").setSchema("tiny").build(), grouped)));
    }

    /** The fragment of {@code sql}'s distributed plan that holds its (one) join. */
    private String joinFragment(io.trino.Session session, String sql) {
        String plan = (String) trino.execute(session, "EXPLAIN (TYPE DISTRIBUTED) " + sql).getOnlyValue();
        List<String> joins = new ArrayList<>();
        for (String fragment : plan.split("(?m)^(?=Fragment \\d+)")) {
            if (fragment.contains("InnerJoin[")) {
                joins.add(fragment);
            }
        }
        assertThat(joins).as("fragments with a join in %s", plan).hasSize(1);
        return joins.getFirst();
    }

    @Test
    void likeConditionsAreFilteredByLocusDb() {
        List<String> queries = List.of(
                "SELECT count(*) FROM part WHERE p_type LIKE '%BRASS'",
                "SELECT count(*), min(p_partkey) FROM part WHERE p_name NOT LIKE '%green%' AND p_size < 10",
                "SELECT count(*) FROM part WHERE p_comment LIKE '%\\_%' ESCAPE '\\' OR p_comment LIKE 'ab_'",
                "SELECT count(*) FROM orders WHERE o_comment LIKE '%special%requests%'");
        for (String sql : queries) {
            assertThat(TpchQueries.canonical(trino.execute(sql))).as(sql).isEqualTo(TpchQueries.canonical(
                    trino.execute(testSessionBuilder().setCatalog("tpch").setSchema("tiny").build(), sql)));
        }
        String plan = (String) trino.execute("EXPLAIN SELECT p_partkey FROM part WHERE p_type LIKE '%BRASS' AND"
                + " p_name NOT LIKE '%green%'").getOnlyValue();
        assertThat(plan).contains("\"p_type\" LIKE '%BRASS'").contains("\"p_name\" NOT LIKE '%green%'")
                .doesNotContain("filterPredicate");
    }

    @Test
    void rangesAndInListsAreFilteredByLocusDb() {
        String plan = (String) trino.execute("EXPLAIN SELECT l_orderkey FROM lineitem WHERE l_shipdate >= DATE"
                + " '1994-01-01' AND l_shipdate < DATE '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND"
                + " l_quantity < 24 AND l_returnflag IN ('A', 'R')").getOnlyValue();
        assertThat(plan).contains("l_shipdate").doesNotContain("filterPredicate");
        assertThat(trino.execute("SELECT count(*) FROM lineitem WHERE l_returnflag IN ('A', 'R') AND l_quantity"
                + " < 24").getOnlyValue()).isEqualTo(trino.execute(testSessionBuilder().setCatalog("tpch")
                .setSchema("tiny").build(), "SELECT count(*) FROM lineitem WHERE l_returnflag IN ('A', 'R') AND"
                + " l_quantity < 24").getOnlyValue());
    }
}
