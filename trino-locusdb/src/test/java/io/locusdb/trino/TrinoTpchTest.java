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
import io.trino.testing.MaterializedRow;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two LocusDB servers, each holding one half of TPC-H SF 0.01 in two parts, as one Trino catalog: every TPC-H query
 * through Trino (a coordinator and a worker, so handles and splits travel as JSON) gives the answers of Trino's own
 * tpch catalog, which generates the same rows; both servers' parts are read; filters reach LocusDB.
 */
class TrinoTpchTest {
    private static final int SERVERS = 2;
    private static final List<LocusDB> databases = new ArrayList<>();
    private static final List<LocusServer> servers = new ArrayList<>();
    private static DistributedQueryRunner trino;

    @BeforeAll
    static void start() throws Exception {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < SERVERS; i++) {
            LocusDB db = LocusDB.open(LocusConfig.defaults());
            databases.add(db);
            try (Session s = db.connect()) {
                s.execute("LOAD TPCH SCALE 0.01 PARTS 2 SLICE " + i + " OF " + SERVERS).close();
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
        trino.installPlugin(new TpchPlugin());
        trino.createCatalog("tpch", "tpch", Map.of("tpch.column-naming", "STANDARD",
                "tpch.double-type-mapping", "DECIMAL"));
    }

    @AfterAll
    static void stop() {
        if (trino != null) {
            trino.close();
        }
        servers.forEach(LocusServer::close);
        databases.forEach(LocusDB::close);
    }

    @ParameterizedTest(name = "Q{0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22})
    void everyTpchQueryGivesTheAnswersOfTrinosTpchCatalog(int query) throws IOException {
        String sql = query(query);
        MaterializedResult ours = trino.execute(sql);
        MaterializedResult theirs = trino.execute(testSessionBuilder().setCatalog("tpch").setSchema("tiny").build(),
                sql);
        assertThat(canonical(ours)).as("Q%d", query).isEqualTo(canonical(theirs));
        assertThat(theirs.getRowCount()).as("Q%d has rows", query).isGreaterThan(query == 15 ? 0 : -1);
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

    /** TPC-H query {@code n} as Trino's tpch library writes it (Q15's view as a WITH clause). */
    static String query(int n) throws IOException {
        String text;
        try (InputStream in = TpchPlugin.class.getClassLoader().getResourceAsStream(
                "io/trino/tpch/queries/q" + n + ".sql")) {
            assertThat(in).as("query text of Q%d", n).isNotNull();
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        text = text.lines().filter(l -> !l.strip().startsWith("--")).collect(Collectors.joining("\n")).strip();
        if (n == 15) {
            int view = text.indexOf("AS\n") + 3;
            int end = text.indexOf(';');
            text = "WITH revenue AS (" + text.substring(view, end) + ")\n" + text.substring(end + 1).strip();
        }
        return text.endsWith(";") ? text.substring(0, text.length() - 1) : text;
    }

    /** Rows as text, numbers rounded to 4 places (the two catalogs' decimals differ in precision), sorted. */
    private static List<String> canonical(MaterializedResult result) {
        List<String> rows = new ArrayList<>();
        for (MaterializedRow row : result.getMaterializedRows()) {
            List<String> fields = new ArrayList<>();
            for (Object v : row.getFields()) {
                fields.add(v instanceof BigDecimal d ? String.format(Locale.ROOT, "%.4f", d.doubleValue())
                        : v instanceof Double d ? String.format(Locale.ROOT, "%.4f", d) : String.valueOf(v));
            }
            rows.add(String.join("|", fields));
        }
        rows.sort(null);
        return rows;
    }
}
