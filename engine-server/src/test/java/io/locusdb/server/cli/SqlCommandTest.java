package io.locusdb.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SqlCommandTest {
    private final CommandRun cli = new CommandRun();

    private int run(String... args) {
        return cli.run(args);
    }

    @Test
    void embeddedShellRunsStatementsAndPrintsTables() {
        int code = run("sql", "--embedded", "--topology", "fake:2",
                "-c", "CREATE TABLE t (id BIGINT, name VARCHAR)",
                "-c", "INSERT INTO t VALUES (1, 'ada'), (2, NULL)",
                "-c", "SELECT id, name FROM t ORDER BY id");
        assertThat(code).as(cli.out()).isZero();
        assertThat(cli.out()).contains("OK, 2 row(s) affected").containsPattern("id \\| name")
                .containsPattern(" 1 \\| ada").contains("NULL").contains("(2 rows)");
    }

    @Test
    void aFailingStatementPrintsItsSqlStateAndTheShellGoesOn() {
        int code = run("sql", "--embedded", "--topology", "fake:2", "-c", "SELECT nope FROM nowhere",
                "-c", "SELECT 1 + 1 AS two");
        assertThat(code).isEqualTo(1);
        assertThat(cli.out()).contains("ERROR [42P01]").contains("line 1, column 18").contains("two")
                .containsPattern("\\s2\\n");
    }

    @Test
    void withoutEmbeddedItConnectsThroughJdbcAndSaysWhereItTried() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        assertThat(run("sql", "jdbc:locusdb://127.0.0.1:" + port + "/", "-c", "SELECT 1")).isEqualTo(2);
        assertThat(cli.err()).startsWith("locus: ").contains("could not connect to 127.0.0.1:" + port);
    }

    @Test
    void statementsSplitAtSemicolonsOutsideQuotesAndComments() {
        assertThat(StatementSplitter.split("select ';' from t; -- a ; comment\nselect 2"))
                .isEqualTo(List.of("select ';' from t", "-- a ; comment\nselect 2"));
    }
}
