package io.locusdb.bench.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.server.cli.LocusCli;
import io.locusdb.server.net.LocusServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Issue 6, acceptance 1, as a user meets it: a server with TPC-H, the {@code sql} command printing Q6's answer, and
 * a generic JDBC program that knows only java.sql.* running in its own JVM with nothing but the driver jar.
 */
class ServerEndToEndTest {
    private static final double SF = 0.01;
    private static final String Q6 = "SELECT sum(l_extendedprice * l_discount) AS revenue FROM lineitem"
            + " WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1994-01-01' + INTERVAL '1' YEAR"
            + " AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND l_quantity < 24";
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
    void theSqlCommandPrintsTpchQ6sAnswer() {
        StringWriter out = new StringWriter();
        int exit = new CommandLine(new LocusCli()).setOut(new PrintWriter(out, true))
                .execute("sql", server.jdbcUrl(), "-c", Q6 + ";");

        // Q6's standard parameters: year 1994, discount 0.06 ± 0.01, quantity < 24.
        BigDecimal expected = BigDecimal.valueOf(reference.q6Revenue[1994 - LineitemReference.FIRST_YEAR]
                [6 - LineitemReference.FIRST_DISCOUNT][0], 4);
        assertThat(exit).as(out.toString()).isZero();
        assertThat(out.toString()).contains("revenue").contains(expected.toPlainString()).contains("(1 row)");
    }

    @Test
    void aGenericJdbcProgramWithOnlyTheDriverJarListsTablesAndRunsAPreparedQuery() throws Exception {
        Path root = Path.of("").toAbsolutePath().getParent();
        Path driverJar;
        try (Stream<Path> jars = Files.list(root.resolve("client-java/target"))) {
            driverJar = jars.filter(p -> p.getFileName().toString().matches("client-java-.*\\.jar"))
                    .filter(p -> !p.getFileName().toString().contains("sources")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("client-java jar not built"));
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", driverJar.toString(),
                root.resolve("docs/examples/JdbcExample.java").toString(), server.jdbcUrl()));
        Path log = Files.createTempFile("jdbc-example", ".out");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the example finished").isTrue();
        } finally {
            process.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        Files.deleteIfExists(log);

        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).contains("LocusDB JDBC Driver")
                .contains("table lineitem (l_orderkey BIGINT").contains("table region (")
                .containsPattern("returnflag A: \\d+ rows").containsPattern("returnflag N: \\d+ rows");
        long below10 = 0;
        for (int q = 0; q < 10; q++) {
            below10 += reference.quantityRows[q];
        }
        long printed = 0;
        for (String line : output.split("\n")) {
            if (line.startsWith("returnflag ")) {
                printed += Long.parseLong(line.replaceAll(".*: (\\d+) rows.*", "$1"));
            }
        }
        assertThat(printed).as("rows with l_quantity < 10 over all groups").isEqualTo(below10);
    }
}
