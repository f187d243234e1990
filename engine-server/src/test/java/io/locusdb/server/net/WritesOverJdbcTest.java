package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Applications write through JDBC: prepared INSERTs with parameters, batches, UPDATE and DELETE. */
class WritesOverJdbcTest {
    @Test
    void returningAnswersWithTheChangedRowsOverBothDriversAndPgjdbcGeneratedKeys() throws Exception {
        try (LocusServer server = TestServers.start(Map.of("pg.port", "0"), "CREATE TABLE items (id BIGINT NOT NULL,"
                + " name VARCHAR(20), qty INTEGER)")) {
            try (Connection c = DriverManager.getConnection("jdbc:locusdb://127.0.0.1:" + server.port() + "/");
                 PreparedStatement ps = c.prepareStatement("INSERT INTO items VALUES (?, ?, ?) RETURNING id, qty * 2")) {
                assertThat(ps.getMetaData().getColumnCount()).isEqualTo(2);
                ps.setLong(1, 1);
                ps.setString(2, "bolt");
                ps.setInt(3, 21);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(1);
                    assertThat(rs.getLong(2)).isEqualTo(42);
                    assertThat(rs.next()).isFalse();
                }
            }
            for (String mode : new String[] {"simple", "always-prepared"}) {
                try (Connection c = DriverManager.getConnection(server.pgJdbcUrl("locus"),
                        PgJdbcTest.properties(mode))) {
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO items VALUES (?, ?, ?)",
                            Statement.RETURN_GENERATED_KEYS)) {
                        ps.setLong(1, mode.length());
                        ps.setString(2, mode);
                        ps.setInt(3, 5);
                        assertThat(ps.executeUpdate()).isEqualTo(1);
                        try (ResultSet keys = ps.getGeneratedKeys()) {
                            assertThat(keys.next()).isTrue();
                            assertThat(keys.getString("name")).isEqualTo(mode);
                        }
                    }
                    try (Statement s = c.createStatement();
                         ResultSet rs = s.executeQuery("UPDATE items SET qty = qty + 1 WHERE name = '" + mode
                                 + "' RETURNING qty")) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getInt(1)).isEqualTo(6);
                    }
                }
            }
            try (Connection c = DriverManager.getConnection(server.pgJdbcUrl("locus"), PgJdbcTest.properties("simple"));
                 Statement s = c.createStatement()) {
                assertThat(s.execute("DELETE FROM items WHERE qty = 6 RETURNING name")).isTrue();
                int rows = 0;
                try (ResultSet rs = s.getResultSet()) {
                    while (rs.next()) {
                        rows++;
                    }
                }
                assertThat(rows).isEqualTo(2);
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM items")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(1);
                }
            }
        }
    }

    @Test
    void preparedInsertsBatchesUpdatesAndDeletes() throws Exception {
        try (LocusServer server = TestServers.start(Map.of(), "CREATE TABLE orders_in (id BIGINT NOT NULL,"
                + " customer VARCHAR(20), total DECIMAL(12,2), placed DATE)");
             Connection c = DriverManager.getConnection("jdbc:locusdb://127.0.0.1:" + server.port() + "/")) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders_in VALUES (?, ?, ?, ?)")) {
                assertThat(ps.getParameterMetaData().getParameterCount()).isEqualTo(4);
                for (int i = 1; i <= 100; i++) {
                    ps.setLong(1, i);
                    ps.setString(2, "c" + (i % 7));
                    ps.setBigDecimal(3, new BigDecimal(i).movePointLeft(1));
                    ps.setDate(4, Date.valueOf("2026-11-" + (1 + i % 28)));
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                assertThat(counts).hasSize(100).containsOnly(1);
                ps.setLong(1, 101);
                ps.setNull(2, java.sql.Types.VARCHAR);
                ps.setBigDecimal(3, null);
                ps.setDate(4, null);
                assertThat(ps.executeUpdate()).isEqualTo(1);
                // A bad entry stops the batch; the entries before it are done.
                ps.setLong(1, 200);
                ps.setString(2, "ok");
                ps.setBigDecimal(3, BigDecimal.ONE);
                ps.setDate(4, Date.valueOf("2020-01-01"));
                ps.addBatch();
                ps.setNull(1, java.sql.Types.BIGINT);
                ps.addBatch();
                assertThatThrownBy(ps::executeBatch).isInstanceOfSatisfying(BatchUpdateException.class,
                        e -> assertThat(e.getLargeUpdateCounts()).containsExactly(1L));
            }
            try (Statement s = c.createStatement()) {
                s.addBatch("UPDATE orders_in SET total = total * 10 WHERE customer = 'c1'");
                s.addBatch("DELETE FROM orders_in WHERE id > 90");
                s.addBatch("INSERT INTO orders_in SELECT id + 1000, customer, total, placed FROM orders_in"
                        + " WHERE id <= 3");
                assertThat(s.executeBatch()).containsExactly(15, 12, 3);
                try (ResultSet rs = s.executeQuery("SELECT count(*), sum(total) FROM orders_in")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(93);
                    // ids 1..90 (0.1 each step) with c1's rows ×10, plus copies of ids 1..3.
                    BigDecimal expected = BigDecimal.ZERO;
                    for (int i = 1; i <= 90; i++) {
                        BigDecimal v = new BigDecimal(i).movePointLeft(1);
                        expected = expected.add(i % 7 == 1 ? v.multiply(BigDecimal.TEN) : v);
                    }
                    expected = expected.add(new BigDecimal("1.0")).add(new BigDecimal("0.2"))
                            .add(new BigDecimal("0.3"));
                    assertThat(rs.getBigDecimal(2)).isEqualByComparingTo(expected);
                }
                assertThatThrownBy(() -> s.executeUpdate("UPDATE orders_in SET id = NULL"))
                        .isInstanceOf(SQLException.class);
            }
        }
    }
}
