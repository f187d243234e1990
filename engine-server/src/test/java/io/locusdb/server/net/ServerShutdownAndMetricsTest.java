package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.protocol.Message;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Graceful shutdown as docs/protocol.md says, and the Prometheus endpoint with meters that move. */
class ServerShutdownAndMetricsTest {
    @Test
    void shutdownNoticesSessionsLetsStatementsFinishUntilTheDeadlineThenCancelsWith57P01() throws Exception {
        LocusServer server = TestServers.start(Map.of(), "LOAD TPCH SCALE 0.01 PARTS 2");
        int port = server.port();
        try (RawClient idle = RawClient.connect(port); RawClient paused = RawClient.connect(port)) {
            idle.startup();
            paused.startup();
            paused.send(new Message.Query("SELECT l_orderkey FROM lineitem", 0, 1, 0));
            paused.expect(Message.ResultHeader.class);
            paused.expect(Message.Batch.class);

            Thread stopper = Thread.ofPlatform().start(() -> server.shutdown(Duration.ofMillis(800)));
            assertThat(idle.expect(Message.Notice.class).sqlState()).isEqualTo("57P01");
            assertThat(paused.expect(Message.Notice.class).sqlState()).isEqualTo("57P01");
            // Before the deadline the running result may go on.
            paused.send(new Message.Fetch(1));
            assertThat(paused.read()).isInstanceOf(Message.Batch.class);
            // New statements are refused while the server drains.
            idle.send(new Message.Query("SELECT count(*) FROM nation", 0, 1, 0));
            assertThat(idle.result().error().sqlState()).isEqualTo("57P01");
            // At the deadline the paused result is cancelled.
            assertThat(paused.expectError("57P01").message()).contains("shutting down");
            stopper.join(20_000);
            assertThat(idle.closedByServer(Duration.ofSeconds(5))).isTrue();
            assertThat(paused.closedByServer(Duration.ofSeconds(5))).isTrue();
        }
        assertThat(server.awaitTermination(Duration.ofSeconds(5))).isTrue();
        assertThatThrownBy(() -> RawClient.connect(port)).isInstanceOf(ConnectException.class);
        assertThatThrownBy(() -> server.database().connect()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aStatementThatEndsWithinTheGracePeriodFinishesNormally() throws Exception {
        LocusServer server = TestServers.start(Map.of(), "LOAD TPCH SCALE 0.01 PARTS 2");
        try (RawClient c = RawClient.connect(server.port())) {
            c.startup();
            c.send(new Message.Query("SELECT l_orderkey FROM lineitem", 0, 1, 0));
            c.expect(Message.ResultHeader.class);
            c.expect(Message.Batch.class);
            Thread stopper = Thread.ofPlatform().start(() -> server.shutdown(Duration.ofSeconds(20)));
            c.expect(Message.Notice.class);
            c.send(new Message.Fetch(1_000_000));
            RawClient.Result rest = c.result();
            assertThat(rest.end()).isNotNull();
            assertThat(rest.end().truncated()).isFalse();
            stopper.join(20_000);
            assertThat(server.awaitTermination(Duration.ofSeconds(1))).isTrue();
        }
    }

    @Test
    void theMetricsEndpointAnswersAndTheExecutorAndQueryMetersMove() throws Exception {
        try (LocusServer server = TestServers.start(Map.of("metrics.port", "0"), "LOAD TPCH SCALE 0.01 PARTS 2")) {
            HttpClient http = HttpClient.newHttpClient();
            URI uri = URI.create(server.metricsUrl());
            assertThat(uri.getHost()).isEqualTo("127.0.0.1");
            String before = scrape(http, uri);
            assertThat(before).contains("locus_sessions ", "locus_queries_inflight ", "locus_executor_workers");
            double queriesBefore = value(before, "locus_query_latency_seconds_count");
            double bytesBefore = value(before, "locus_bytes_sent_bytes_total");
            double tasksBefore = sum(before, "locus_executor_tasks_run");

            try (RawClient c = RawClient.connect(server.port())) {
                c.startup();
                for (int i = 0; i < 3; i++) {
                    c.query("SELECT l_returnflag, sum(l_quantity) FROM lineitem GROUP BY l_returnflag").rows();
                }
                c.query("SELECT nope FROM lineitem");
                String during = scrape(http, uri);
                assertThat(value(during, "locus_sessions")).isEqualTo(1);
            }
            Thread.sleep(100); // the executor's stats refresh every 20 ms (watchdog)
            String after = scrape(http, uri);
            assertThat(value(after, "locus_query_latency_seconds_count")).isEqualTo(queriesBefore + 4);
            assertThat(after).contains("locus_query_latency_seconds_bucket");
            assertThat(value(after, "locus_bytes_sent_bytes_total")).isGreaterThan(bytesBefore);
            assertThat(after).containsPattern("locus_errors_total\\{code=\"42703\"} 1\\.0");
            assertThat(value(after, "locus_frames_received_total")).isGreaterThanOrEqualTo(5);
            assertThat(sum(after, "locus_executor_tasks_run")).isGreaterThan(tasksBefore);
            assertThat(value(after, "locus_queries_inflight")).isZero();
        }
    }

    @Test
    void placerNodeAndJvmMetersAreExposed() throws Exception {
        try (LocusServer server = TestServers.start(Map.of("metrics.port", "0"),
                "CREATE TABLE m (k BIGINT) PARTITION BY HASH(k) PARTITIONS 2", "INSERT INTO m VALUES (1), (2), (3)",
                "ALTER TABLE m MOVE PART 1 TO NODE 0")) {
            HttpClient http = HttpClient.newHttpClient();
            String text = scrape(http, URI.create(server.metricsUrl()));
            assertThat(text).containsPattern("locus_node_threads\\{node=\"0\"}")
                    .containsPattern("locus_node_memory_throughput_bytes_per_second\\{node=\"0\"}")
                    .containsPattern("locus_node_memory_used_bytes\\{node=\"0\"} [1-9]")
                    .containsPattern("locus_placer_events_total\\{action=\"move\",outcome=\"done\",source=\"operator\"}"
                            + " 1\\.0")
                    .contains("locus_placer_enabled 1.0", "jvm_memory_used_bytes", "jvm_gc_", "jvm_threads_live_threads",
                            "process_cpu_usage");
            // The memory account: table memory per node by kind, the JVM's areas, the process's resident memory.
            // The table's three rows are not merged yet: they are delta rows on the heap.
            assertThat(text).containsPattern("locus_memory_bytes\\{area=\"column codes\",counted_as=\"exact\","
                            + "node=\"0\",pool=\"\"} ")
                    .containsPattern("locus_memory_bytes\\{area=\"delta rows\",counted_as=\"estimate\","
                            + "node=\"0\",pool=\"\"} [1-9]")
                    .containsPattern("locus_memory_bytes\\{area=\"java heap committed\",[^}]*} [1-9]")
                    .containsPattern("locus_memory_bytes\\{area=\"jvm non-heap\",[^}]*pool=\"Metaspace\"} [1-9]")
                    .doesNotContainPattern("locus_memory_bytes\\{[^}]*} NaN");
        }
    }

    private static String scrape(HttpClient http, URI uri) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }

    /** The value of an untagged meter line. */
    private static double value(String scrape, String name) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(?:\\{[^}]*})? (\\S+)$").matcher(scrape);
        assertThat(m.find()).as(name + " in the scrape").isTrue();
        return Double.parseDouble(m.group(1));
    }

    /** The sum over every series of a meter (e.g. per class and node). */
    private static double sum(String scrape, String prefix) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(prefix) + "[a-z_]*(?:\\{[^}]*})? (\\S+)$").matcher(scrape);
        double total = 0;
        while (m.find()) {
            total += Double.parseDouble(m.group(1));
        }
        return total;
    }
}
