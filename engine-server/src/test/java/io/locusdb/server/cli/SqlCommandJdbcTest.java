package io.locusdb.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.protocol.BatchEncoder;
import io.locusdb.protocol.ColumnDescription;
import io.locusdb.protocol.FrameReader;
import io.locusdb.protocol.Message;
import io.locusdb.protocol.MessageCodec;
import io.locusdb.protocol.Protocol;
import io.locusdb.protocol.WireType;
import io.locusdb.protocol.WireWriter;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ./locus sql [jdbc-url]} against a scripted server speaking the protocol (the real-server test arrives
 * with {@code ./locus serve}): tables, update counts, errors with SQLSTATE and position, exit codes, credentials.
 */
class SqlCommandJdbcTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final List<Message> received = new CopyOnWriteArrayList<>();
    private ServerSocket server;

    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    Thread.ofPlatform().daemon().start(() -> serve(s));
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    private String url() {
        return "jdbc:locusdb://127.0.0.1:" + server.getLocalPort() + "/";
    }

    /** Canned answers: a two-row table, an update count, a positioned error. */
    private void serve(Socket socket) {
        try (socket) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            in.readFully(new byte[Protocol.PREAMBLE_BYTES]);
            FrameReader reader = new FrameReader(in, Protocol.DEFAULT_MAX_FRAME_BYTES);
            WireWriter w = new WireWriter();
            while (true) {
                int type = reader.next();
                Message m = MessageCodec.read(type, reader.reader(), null);
                received.add(m);
                w.clear();
                switch (m) {
                    case Message.Startup s -> MessageCodec.write(w, new Message.Ready(1, 2, "0.1.0-test", 1 << 24,
                            1024));
                    case Message.Query q when q.sql().contains("SELECT id") -> {
                        List<ColumnDescription> cols = List.of(
                                new ColumnDescription("id", WireType.of(WireType.BIGINT), false),
                                new ColumnDescription("name", WireType.varchar(0), true),
                                new ColumnDescription("price", WireType.decimal(15, 2), true));
                        MessageCodec.write(w, new Message.ResultHeader(true, cols));
                        BatchEncoder.begin(w, 2);
                        BatchEncoder.nulls(w, null, 0, 2);
                        BatchEncoder.longs(w, cols.get(0).type(), new long[] {1, 22}, null, 0, 2);
                        boolean[] nulls = {false, true};
                        BatchEncoder.nulls(w, nulls, 0, 2);
                        BatchEncoder.strings(w, r -> "Grüße", nulls, 0, 2);
                        BatchEncoder.nulls(w, null, 0, 2);
                        BatchEncoder.longs(w, cols.get(2).type(), new long[] {1250, -5}, null, 0, 2);
                        w.endFrame();
                        MessageCodec.write(w, new Message.ResultEnd(-1, 2, false));
                    }
                    case Message.Query q when q.sql().startsWith("INSERT") -> {
                        MessageCodec.write(w, new Message.ResultHeader(false, List.of()));
                        MessageCodec.write(w, new Message.ResultEnd(3, 0, false));
                    }
                    case Message.Query q -> MessageCodec.write(w, new Message.Error("42P01",
                            "table \"nowhere\" does not exist", 1, 18));
                    case Message.Terminate t -> {
                        return;
                    }
                    default -> MessageCodec.write(w, new Message.Error("0A000", "not scripted", 0, 0));
                }
                out.write(w.array(), 0, w.size());
                out.flush();
            }
        } catch (IOException e) {
            // client gone
        }
    }

    private int run(String... args) {
        CommandLine cli = LocusCli.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    @Test
    void statementsRunThroughTheDriverAndPrintAlignedTablesWithTimings() {
        int code = run("sql", url(), "-c", "SELECT id, name, price FROM t", "-c", "INSERT INTO t VALUES (1), (2), (3)");
        assertThat(code).as(out + "" + err).isZero();
        assertThat(out.toString()).contains("id | name  | price")
                .containsPattern("\\n 1 \\| Grüße \\| 12\\.50\\n")
                .containsPattern("\\n22 \\| NULL  \\| -0\\.05\\n")
                .contains("(2 rows)").containsPattern("\\(\\d+\\.\\d ms\\)")
                .containsPattern("OK, 3 row\\(s\\) affected \\(\\d+\\.\\d ms\\)");
        assertThat(received).filteredOn(m -> m instanceof Message.Query).hasSize(2);
    }

    @Test
    void aFailingStatementPrintsItsSqlStateAndPositionAndTheExitCodeSaysSo() {
        int code = run("sql", url(), "-c", "SELECT nope FROM nowhere", "-c", "SELECT id FROM t");
        assertThat(code).isEqualTo(1);
        assertThat(out.toString()).contains("ERROR [42P01] table \"nowhere\" does not exist (line 1, column 18)")
                .contains("(2 rows)");
    }

    @Test
    void scriptsComeFromFilesAndCredentialsFromOptions(@TempDir Path dir) throws IOException {
        Path script = dir.resolve("q.sql");
        Files.writeString(script, "-- a script\nSELECT id\n  FROM t;\nINSERT INTO t VALUES (1);\n");
        int code = run("sql", url(), "--user", "ada", "--password", "pw", "-f", script.toString());
        assertThat(code).as(out.toString()).isZero();
        Message.Startup startup = (Message.Startup) received.getFirst();
        assertThat(startup.user()).isEqualTo("ada");
        assertThat(startup.password()).isEqualTo("pw");
        assertThat(out.toString()).contains("(2 rows)").contains("OK, 3 row(s) affected");
    }

    @Test
    void embeddedAndAUrlExcludeEachOther() {
        assertThat(run("sql", "--embedded", url(), "-c", "SELECT 1")).isEqualTo(2);
        assertThat(err.toString()).contains("exclude each other");
    }
}
