package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A join whose output must be collected (to be sorted) and outgrows the statement's memory budget fails with 53200
 * naming the budget, while 32 other JDBC clients keep getting right answers from joins of their own.
 */
class JoinMemoryBudgetTest {
    private static final String SMALL_JOIN = "SELECT count(*), sum(o_totalprice) FROM orders JOIN customer"
            + " ON o_custkey = c_custkey WHERE c_nationkey = ?";

    @Test
    void anOversizedJoinFailsWith53200AndEveryoneElseIsServed() throws Exception {
        try (LocusServer server = TestServers.start(Map.of("query-memory-budget", "16m"),
                "LOAD TPCH SCALE 0.01 PARTS 2")) {
            String url = "jdbc:locusdb://127.0.0.1:" + server.port() + "/";
            long[] expected = new long[25];
            try (Connection c = DriverManager.getConnection(url);
                 PreparedStatement ps = c.prepareStatement(SMALL_JOIN)) {
                for (int n = 0; n < 25; n++) {
                    ps.setInt(1, n);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        expected[n] = rs.getLong(1);
                    }
                }
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger answers = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> clients = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                int client = i;
                clients.add(Thread.ofPlatform().start(() -> {
                    try (Connection c = DriverManager.getConnection(url);
                         PreparedStatement ps = c.prepareStatement(SMALL_JOIN)) {
                        for (int round = 0; !stop.get() || round < 3; round++) {
                            int nation = (client + round) % 25;
                            ps.setInt(1, nation);
                            try (ResultSet rs = ps.executeQuery()) {
                                rs.next();
                                if (rs.getLong(1) != expected[nation]) {
                                    throw new AssertionError("nation " + nation + ": " + rs.getLong(1) + " rows, expected "
                                            + expected[nation]);
                                }
                            }
                            answers.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                }));
            }
            SQLException refused = null;
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                 // Sorted, so the join's output is collected whole (unsorted, it streams to the client).
                 ResultSet rs = s.executeQuery("SELECT a.l_orderkey, b.l_orderkey FROM lineitem a JOIN lineitem b"
                         + " ON a.l_partkey = b.l_partkey ORDER BY a.l_orderkey")) {
                while (rs.next()) {
                    // read it all
                }
            } catch (SQLException e) {
                refused = e;
            }
            stop.set(true);
            for (Thread t : clients) {
                t.join(60_000);
            }
            assertThat((Throwable) refused).as("the oversized join").isNotNull();
            assertThat(refused.getSQLState()).isEqualTo("53200");
            assertThat(refused.getMessage()).contains("budget");
            assertThat(failure.get()).as("the other clients").isNull();
            assertThat(answers.get()).isGreaterThanOrEqualTo(32 * 3);
        }
    }
}
