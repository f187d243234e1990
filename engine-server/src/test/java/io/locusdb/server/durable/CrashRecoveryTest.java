package io.locusdb.server.durable;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance of the data directory: a server process under a stream of acknowledged inserts (or upserts into a keyed
 * table) from several clients is killed with SIGKILL at random moments; after every restart each acknowledged row is
 * there exactly once, each acknowledged upsert's values are the key's values (or the values of the one statement in
 * flight at the kill), and no statement is there in part.
 */
class CrashRecoveryTest {
    private static final int ROUNDS = 20;
    private static final int CLIENTS = 3;
    /** Rows per INSERT statement: a statement is all there or not at all. */
    private static final int ROWS_PER_STATEMENT = 3;

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedRowSurvivesSigkillExactlyOnce() throws Exception {
        Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicLong nextStatement = new AtomicLong();
        killRepeatedly(dir.resolve("data"), ROUNDS, new Random(20261126),
                "CREATE TABLE acks (stmt BIGINT NOT NULL, k INTEGER NOT NULL, client INTEGER)",
                url -> verify(url, acknowledged),
                (url, client, stop) -> insertUntilStopped(url, client, nextStatement, acknowledged, stop));
        assertThat(acknowledged.size()).as("statements acknowledged over all rounds").isGreaterThan(ROUNDS);
    }

    /** Checks a restarted server's state. */
    @FunctionalInterface
    private interface Check {
        void verify(String url) throws SQLException;
    }

    /** One client's writes until {@code stop}. */
    @FunctionalInterface
    private interface Client {
        void run(String url, int client, AtomicBoolean stop);
    }

    /**
     * {@code rounds} times: starts the server on {@code data} (creating the table in the first round), checks it,
     * lets {@link #CLIENTS} clients write for a random while and kills the server with SIGKILL; then starts it once
     * more and checks again.
     */
    private static void killRepeatedly(Path data, int rounds, Random random, String create, Check check,
                                       Client client) throws Exception {
        for (int round = 0; round <= rounds; round++) {
            Process server = start(data);
            try {
                String url = awaitUrl(server);
                if (round == 0) {
                    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                        s.execute(create);
                    }
                }
                check.verify(url);
                if (round == rounds) {
                    break;
                }
                AtomicBoolean stop = new AtomicBoolean();
                List<Thread> clients = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    int id = c;
                    clients.add(Thread.ofPlatform().start(() -> client.run(url, id, stop)));
                }
                Thread.sleep(150 + random.nextInt(600));
                server.destroyForcibly(); // SIGKILL: no shutdown hook, no last checkpoint
                server.waitFor(30, TimeUnit.SECONDS);
                stop.set(true);
                for (Thread t : clients) {
                    t.join(30_000);
                }
            } finally {
                server.destroyForcibly();
                server.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void everyAcknowledgedUpsertSurvivesSigkill() throws Exception {
        Map<Integer, Long> acknowledged = new ConcurrentHashMap<>();
        Map<Integer, Long> inFlight = new ConcurrentHashMap<>();
        AtomicLong statements = new AtomicLong();
        killRepeatedly(dir.resolve("keyed"), UPSERT_ROUNDS, new Random(20261128),
                "CREATE TABLE counters (k INTEGER PRIMARY KEY, v BIGINT NOT NULL, client INTEGER)",
                url -> verifyUpserts(url, acknowledged, inFlight),
                (url, client, stop) -> upsertUntilStopped(url, client, statements, acknowledged, inFlight, stop));
        assertThat(statements.get()).as("upserts acknowledged over all rounds").isGreaterThan(UPSERT_ROUNDS);
    }

    private static final int UPSERT_ROUNDS = 8;
    /** Keys each client upserts (its own: clients never touch each other's keys). */
    private static final int KEYS_PER_CLIENT = 20;

    /**
     * One client's upserts: each statement sets three of its keys to the statement's number, half of them through
     * DO UPDATE with the existing row; a statement's values are remembered as in flight until acknowledged.
     */
    private static void upsertUntilStopped(String url, int client, AtomicLong statements,
                                           Map<Integer, Long> acknowledged, Map<Integer, Long> inFlight,
                                           AtomicBoolean stop) {
        Random random = new Random(client);
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            while (!stop.get()) {
                long value = statements.incrementAndGet();
                StringBuilder sql = new StringBuilder("INSERT INTO counters VALUES ");
                List<Integer> keys = new ArrayList<>();
                while (keys.size() < ROWS_PER_STATEMENT) {
                    int k = client * KEYS_PER_CLIENT + random.nextInt(KEYS_PER_CLIENT);
                    if (!keys.contains(k)) {
                        keys.add(k);
                    }
                }
                for (int k : keys) {
                    sql.append(sql.charAt(sql.length() - 1) == ' ' ? "" : ", ").append('(').append(k).append(", ")
                            .append(value).append(", ").append(client).append(')');
                    inFlight.put(k, value);
                }
                sql.append(value % 2 == 0 ? " ON CONFLICT (k) DO UPDATE SET v = excluded.v"
                        : " ON CONFLICT (k) DO UPDATE SET v = counters.v - counters.v + excluded.v");
                s.executeUpdate(sql.toString());
                for (int k : keys) {
                    acknowledged.put(k, value);
                    inFlight.remove(k);
                }
            }
        } catch (SQLException e) {
            // The server was killed: the statement in flight was not acknowledged, and need not be there.
        }
    }

    /**
     * Each key holds its last acknowledged value, or the value of the statement in flight when the server died;
     * no key twice. What is there becomes the acknowledged state of the next round.
     */
    private static void verifyUpserts(String url, Map<Integer, Long> acknowledged, Map<Integer, Long> inFlight)
            throws SQLException {
        Map<Integer, Long> stored = new HashMap<>();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT k, v FROM counters")) {
            while (r.next()) {
                assertThat(stored.put(r.getInt(1), r.getLong(2))).as("key %d twice", r.getInt(1)).isNull();
            }
        }
        for (Map.Entry<Integer, Long> e : acknowledged.entrySet()) {
            assertThat(stored.get(e.getKey())).as("key %d after its acknowledged upsert", e.getKey())
                    .isIn(e.getValue(), inFlight.get(e.getKey()));
        }
        for (Map.Entry<Integer, Long> e : stored.entrySet()) {
            if (!acknowledged.containsKey(e.getKey())) {
                assertThat(e.getValue()).as("key %d never acknowledged", e.getKey())
                        .isEqualTo(inFlight.get(e.getKey()));
            }
        }
        acknowledged.putAll(stored);
        inFlight.clear();
    }

    private static void insertUntilStopped(String url, int client, AtomicLong nextStatement, Set<Long> acknowledged,
                                           AtomicBoolean stop) {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            while (!stop.get()) {
                long statement = nextStatement.incrementAndGet();
                StringBuilder sql = new StringBuilder("INSERT INTO acks VALUES ");
                for (int k = 0; k < ROWS_PER_STATEMENT; k++) {
                    sql.append(k == 0 ? "" : ", ").append('(').append(statement).append(", ").append(k).append(", ")
                            .append(client).append(')');
                }
                s.executeUpdate(sql.toString());
                acknowledged.add(statement);
            }
        } catch (SQLException e) {
            // The server was killed: the statement in flight was not acknowledged, and need not be there.
        }
    }

    private static void verify(String url, Set<Long> acknowledged) throws SQLException {
        Map<Long, Integer> rowsPerStatement = new HashMap<>();
        Map<String, Integer> copies = new HashMap<>();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT stmt, k FROM acks")) {
            while (r.next()) {
                rowsPerStatement.merge(r.getLong(1), 1, Integer::sum);
                copies.merge(r.getLong(1) + "/" + r.getInt(2), 1, Integer::sum);
            }
        }
        assertThat(rowsPerStatement.keySet()).as("acknowledged statements present").containsAll(acknowledged);
        assertThat(rowsPerStatement.values()).as("no statement in part").allMatch(n -> n == ROWS_PER_STATEMENT);
        assertThat(copies.values()).as("no row twice").allMatch(n -> n == 1);
    }

    private static Process start(Path data) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = List.of(java, "--enable-native-access=ALL-UNNAMED", "--add-modules",
                "jdk.incubator.vector", "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                "io.locusdb.server.cli.LocusCli", "serve", "--data", data.toString(), "--port", "0",
                "--metrics-port", "-1", "--pg-port", "-1", "--topology", "fake:1", "--placer", "off");
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** Reads the server's output until it says where it listens; fails with what it printed otherwise. */
    private static String awaitUrl(Process server) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(),
                StandardCharsets.UTF_8));
        StringBuilder printed = new StringBuilder();
        String line;
        while ((line = out.readLine()) != null) {
            printed.append(line).append('\n');
            String prefix = "LocusDB server listening on ";
            if (line.startsWith(prefix)) {
                Thread.ofVirtual().start(() -> drain(out));
                return line.substring(prefix.length()).strip();
            }
        }
        throw new AssertionError("the server did not start:\n" + printed);
    }

    private static void drain(BufferedReader out) {
        try {
            while (out.readLine() != null) {
                // keep the pipe from filling
            }
        } catch (IOException e) {
            // the process ended
        }
    }
}
