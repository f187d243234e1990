package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debian's {@code psql} (installed by {@code .ci/run}) against the PostgreSQL listener, as a user types at it:
 * queries, an INSERT, a failing statement (with psql's caret under the error), {@code \copy} in and out.
 */
class PsqlTest {
    static final String Q1 = """
            SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty, sum(l_extendedprice) AS sum_base_price,
                   sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
                   sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge, avg(l_quantity) AS avg_qty,
                   avg(l_extendedprice) AS avg_price, avg(l_discount) AS avg_disc, count(*) AS count_order
            FROM lineitem
            WHERE l_shipdate <= CAST('1998-09-02' AS date)
            GROUP BY l_returnflag, l_linestatus
            ORDER BY l_returnflag, l_linestatus;
            """;
    private static LocusServer server;

    @BeforeAll
    static void start() {
        server = TestServers.start(Map.of("pg.port", "0"), "LOAD TPCH SCALE 0.01",
                "CREATE TABLE notes (id BIGINT, body VARCHAR, made DATE, score DOUBLE)");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static boolean psqlInstalled() {
        try {
            Process p = new ProcessBuilder("psql", "--version").redirectErrorStream(true).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** Runs psql on {@code script} (as a file, like {@code psql -f}); returns what it printed, stdout and stderr. */
    static String psql(Path dir, String script, String... options) throws Exception {
        assumeTrue(psqlInstalled(), "psql is not installed (.ci/run installs postgresql-client)");
        Path file = Files.writeString(dir.resolve("script-" + System.nanoTime() + ".sql"), script);
        List<String> command = new ArrayList<>(List.of("psql", "-X", "--no-psqlrc", "-v", "ON_ERROR_STOP=0",
                "host=127.0.0.1 port=" + server.pgPort() + " user=tester dbname=locus sslmode=prefer"));
        command.addAll(List.of(options));
        command.addAll(List.of("-f", file.toString()));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).directory(dir.toFile());
        pb.environment().put("PGCONNECT_TIMEOUT", "10");
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return output;
    }

    @Test
    void listsDatabasesAndTables(@TempDir Path dir) throws Exception {
        String out = psql(dir, "\\l\n\\dt\n");
        assertThat(out).doesNotContain("ERROR").containsPattern("locus +\\| locus +\\| UTF8");
        assertThat(out).containsPattern("public \\| lineitem +\\| table").contains("public | notes");
    }

    @Test
    void describesATableWithEveryQueryPsqlSends(@TempDir Path dir) throws Exception {
        // \d runs psql's whole series of catalog queries: columns, indexes, policies, statistics, publications
        // (arrays, generate_series, string_agg), inheritance.
        String out = psql(dir, "\\d lineitem\n");
        assertThat(out).doesNotContain("ERROR").contains("Table \"public.lineitem\"")
                .containsPattern("l_quantity +\\| numeric\\(15,2\\)").containsPattern("l_shipdate +\\| date");
    }

    @Test
    void runsTpchQ1AndPrintsItsTable(@TempDir Path dir) throws Exception {
        String out = psql(dir, Q1);
        assertThat(out).contains("l_returnflag | l_linestatus").contains("(4 rows)").doesNotContain("ERROR");
        assertThat(out).containsPattern("A +\\| F +\\|");
    }

    @Test
    void aFailingStatementShowsWhereAndTheSessionGoesOn(@TempDir Path dir) throws Exception {
        String out = psql(dir, """
                SELECT n_name FROM nation WHERE n_nationkey = 0;
                SELECT n_nme FROM nation;
                SELECT count(*) AS nations FROM nation;
                """);
        assertThat(out).contains("ALGERIA");
        assertThat(out).contains("ERROR:").contains("LINE 1: SELECT n_nme FROM nation;").contains("^");
        assertThat(out).contains(" nations ").contains("25");
    }

    @Test
    void insertsAndCopiesInAndOut(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("in.csv"), "id,body,made,score\n1,\"hello, world\",2024-01-02,1.5\n"
                + "2,,2024-02-03,\n3,\"say \"\"hi\"\"\",2024-03-04,-0.25\n");
        Files.writeString(dir.resolve("in.txt"), "10\ttab\\there\t2020-05-06\t3\n11\t\\N\t\\N\t\\N\n");
        String out = psql(dir, """
                INSERT INTO notes VALUES (100, 'typed in psql', DATE '2025-01-01', 9.5);
                \\copy notes FROM 'in.csv' WITH (FORMAT csv, HEADER)
                \\copy notes FROM 'in.txt'
                SELECT count(*) AS copied FROM notes;
                \\copy (SELECT id, body, made, score FROM notes ORDER BY id) TO 'out.csv' WITH (FORMAT csv, HEADER)
                \\copy notes TO 'out.txt'
                """);
        assertThat(out).contains("INSERT 0 1").contains("COPY 3").contains("COPY 2").contains("COPY 6")
                .doesNotContain("ERROR");
        assertThat(out).containsPattern("copied\\s*\\n-+\\s*\\n\\s*6");
        List<String> csv = Files.readAllLines(dir.resolve("out.csv"));
        assertThat(csv).containsExactly("id,body,made,score", "1,\"hello, world\",2024-01-02,1.5",
                "2,,2024-02-03,", "3,\"say \"\"hi\"\"\",2024-03-04,-0.25", "10,tab\there,2020-05-06,3",
                "11,,,", "100,typed in psql,2025-01-01,9.5");
        assertThat(Files.readAllLines(dir.resolve("out.txt"))).hasSize(6).contains("11\t\\N\t\\N\t\\N",
                "10\ttab\\there\t2020-05-06\t3");
    }
}
