package io.locusdb.bench.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.server.net.LocusServer;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 6, acceptance 2: 256 JDBC clients, each on its own connection, run the supported query mix against one
 * server for a bounded time; every answer is checked against the generator, and there are no errors.
 */
class ConcurrentClientsTest {
    private static final double SF = 0.01;
    private static LocusServer server;
    private static LineitemReference reference;

    @BeforeAll
    static void start() {
        server = TpchServers.start(SF);
        reference = LineitemReference.compute(SF, 2);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void twoHundredFiftySixClientsGetOnlyRightAnswers() throws InterruptedException {
        ThroughputRun run = new ThroughputRun(server.jdbcUrl(), new Properties(), TpchMix.queries(reference));

        ThroughputReport report = run.run(256, Duration.ofSeconds(2), Duration.ofSeconds(10), 7);

        System.out.print(report.format());
        assertThat(report.failures()).isEmpty();
        assertThat(report.errors()).isZero();
        assertThat(report.wrongAnswers()).isZero();
        assertThat(report.connectFailures()).isZero();
        assertThat(report.idleClients()).as("clients that completed no query while measured").isZero();
        report.latencies().forEach((query, h) -> assertThat(h.getTotalCount()).as(query).isPositive());
        assertThat(server.metrics()).isNotNull();
    }
}
