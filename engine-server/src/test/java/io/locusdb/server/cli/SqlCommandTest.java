package io.locusdb.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SqlCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = LocusCli.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    @Test
    void embeddedShellRunsStatementsAndPrintsTables() {
        int code = run("sql", "--embedded", "--topology", "fake:2",
                "-c", "CREATE TABLE t (id BIGINT, name VARCHAR)",
                "-c", "INSERT INTO t VALUES (1, 'ada'), (2, NULL)",
                "-c", "SELECT id, name FROM t ORDER BY id");
        assertThat(code).as(out.toString()).isZero();
        assertThat(out.toString()).contains("OK, 2 row(s) affected").containsPattern("id \\| name")
                .containsPattern(" 1 \\| ada").contains("NULL").contains("(2 rows)");
    }

    @Test
    void aFailingStatementPrintsItsSqlStateAndTheShellGoesOn() {
        int code = run("sql", "--embedded", "--topology", "fake:2", "-c", "SELECT nope FROM nowhere",
                "-c", "SELECT 1 + 1 AS two");
        assertThat(code).isEqualTo(1);
        assertThat(out.toString()).contains("ERROR [42P01]").contains("line 1, column 18").contains("two")
                .containsPattern("\\s2\\n");
    }

    @Test
    void withoutEmbeddedItConnectsThroughJdbcAndSaysWhereItTried() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        assertThat(run("sql", "jdbc:locusdb://127.0.0.1:" + port + "/", "-c", "SELECT 1")).isEqualTo(2);
        assertThat(err.toString()).startsWith("locus: ").contains("could not connect to 127.0.0.1:" + port);
    }

    @Test
    void statementsSplitAtSemicolonsOutsideQuotesAndComments() {
        assertThat(StatementSplitter.split("select ';' from t; -- a ; comment\nselect 2"))
                .isEqualTo(List.of("select ';' from t", "-- a ; comment\nselect 2"));
    }
}
