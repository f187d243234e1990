package io.locusdb.core.sql.oracle;

import io.locusdb.core.PreparedQuery;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * TIMESTAMP columns against DuckDB on random rows with NULLs, microseconds, midnights and the ends of months:
 * comparisons with timestamp and date literals (pushed into the scan), EXTRACT of every field, date_trunc from
 * microseconds to decades, interval arithmetic from seconds to years, casts, grouping, joining and ordering on
 * timestamps, date_diff, and a prepared statement bound to a LocalDateTime.
 */
class TimestampDifferentialTest {
    private static final long SEED = 20_261_128L;
    private static OracleDatabases databases;

    @BeforeAll
    static void load() {
        databases = OracleDatabases.open();
        String create = "CREATE TABLE ts (id INTEGER, t TIMESTAMP, u TIMESTAMP, d DATE, n INTEGER)";
        databases.execute(create);
        databases.duck.execute(create);
        Random random = new Random(SEED);
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            rows.add("(" + i + ", " + maybe(random, literal(randomTime(random))) + ", "
                    + maybe(random, literal(randomTime(random))) + ", "
                    + maybe(random, "DATE '" + LocalDate.of(2019, 1, 1).plusDays(random.nextInt(1_500)) + "'") + ", "
                    + maybe(random, String.valueOf(random.nextInt(50) - 25)) + ")");
        }
        String insert = "INSERT INTO ts VALUES " + String.join(", ", rows);
        databases.execute(insert);
        databases.duck.execute(insert);
    }

    /** Times that hit the cases that break: midnight, a month's last day, whole seconds and odd microseconds. */
    private static LocalDateTime randomTime(Random random) {
        LocalDate day = LocalDate.of(2019, 1, 1).plusDays(random.nextInt(1_500));
        if (random.nextInt(10) == 0) {
            day = day.withDayOfMonth(day.lengthOfMonth());
        }
        return switch (random.nextInt(4)) {
            case 0 -> day.atStartOfDay();
            case 1 -> day.atTime(random.nextInt(24), random.nextInt(60), random.nextInt(60));
            default -> day.atStartOfDay().plusNanos(random.nextLong(86_400_000_000L) * 1_000);
        };
    }

    private static String literal(LocalDateTime t) {
        return "TIMESTAMP '" + t.toLocalDate() + " " + t.toLocalTime() + "'";
    }

    private static String maybe(Random random, String value) {
        return random.nextInt(9) == 0 ? "NULL" : value;
    }

    @AfterAll
    static void close() {
        if (databases != null) {
            databases.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> timestampQueriesAgreeWithDuckDb() {
        return Stream.of(
                "SELECT * FROM ts",
                "SELECT id FROM ts WHERE t >= TIMESTAMP '2020-06-01 12:00:00' AND t < TIMESTAMP '2021-01-01 00:00:00'",
                "SELECT id FROM ts WHERE t > DATE '2020-03-01' AND u <= DATE '2021-03-01'",
                "SELECT id FROM ts WHERE t BETWEEN TIMESTAMP '2020-01-01' AND TIMESTAMP '2020-12-31 23:59:59.5'",
                "SELECT id, t < u, t = u, d < t FROM ts",
                "SELECT id, extract(year FROM t), extract(quarter FROM t), extract(month FROM t), extract(day FROM t),"
                        + " extract(hour FROM t), extract(minute FROM t), extract(dow FROM t), extract(doy FROM t),"
                        + " extract(week FROM t) FROM ts",
                "SELECT id, extract(second FROM t), extract(millisecond FROM t), extract(microsecond FROM t) FROM ts",
                "SELECT id, date_trunc('microseconds', t), date_trunc('milliseconds', t), date_trunc('second', t),"
                        + " date_trunc('minute', t), date_trunc('hour', t), date_trunc('day', t) FROM ts",
                "SELECT id, date_trunc('week', t), date_trunc('month', t), date_trunc('quarter', t),"
                        + " date_trunc('year', t), date_trunc('decade', t) FROM ts",
                "SELECT id, t + INTERVAL '90 minutes', t - INTERVAL '45 seconds', t + INTERVAL '3 hours',"
                        + " t - INTERVAL '2 days', t + INTERVAL '1 month', t - INTERVAL '1 year', t + INTERVAL '2 weeks'"
                        + " FROM ts",
                "SELECT id, t + INTERVAL '1' MONTH FROM ts WHERE extract(day FROM t) >= 29",
                "SELECT id, CAST(t AS DATE), CAST(d AS TIMESTAMP), CAST(d AS TIMESTAMP) + INTERVAL '6 hours' FROM ts",
                "SELECT id, CAST(CAST(t AS VARCHAR) AS TIMESTAMP) FROM ts",
                "SELECT date_trunc('month', t) AS month, count(*), min(u), max(u), count(DISTINCT d) FROM ts GROUP BY 1",
                "SELECT min(t), max(t), count(t), count(DISTINCT t) FROM ts",
                "SELECT t, count(*) FROM ts GROUP BY t HAVING count(*) > 0",
                "SELECT a.id, b.id FROM ts a JOIN ts b ON date_trunc('day', a.t) = date_trunc('day', b.u)",
                "SELECT a.id, b.id FROM ts a JOIN ts b ON a.t = b.t WHERE a.id < b.id",
                "SELECT id, t FROM ts WHERE t IS NOT NULL ORDER BY t DESC, id LIMIT 25",
                "SELECT id, row_number() OVER (PARTITION BY extract(year FROM t) ORDER BY t, id) FROM ts",
                "SELECT id, date_diff('second', t, u), date_diff('minute', t, u), date_diff('hour', t, u),"
                        + " date_diff('day', t, u), date_diff('month', t, u), date_diff('year', t, u) FROM ts",
                "SELECT id, greatest(t, u), least(t, u) FROM ts",
                "SELECT id, CASE WHEN t > u THEN t ELSE u END, coalesce(t, u, TIMESTAMP '2000-01-01') FROM ts",
                "SELECT * FROM generate_series(TIMESTAMP '2024-03-01 00:00', TIMESTAMP '2024-03-02 00:00',"
                        + " INTERVAL '90 minutes')",
                "SELECT g, count(t) FROM generate_series(TIMESTAMP '2020-01-01', TIMESTAMP '2020-12-01',"
                        + " INTERVAL '1 month') AS s(g) LEFT JOIN ts ON date_trunc('month', ts.t) = g GROUP BY g")
                .map(sql -> dynamicTest(sql, () -> ResultComparison.assertAgrees(databases.session, databases.duck,
                        sql, sql.contains("ORDER BY t DESC"))));
    }

    @Test
    void aPreparedStatementBindsALocalDateTime() {
        String sql = "SELECT id, t FROM ts WHERE t >= ? AND t < ?";
        LocalDateTime from = LocalDateTime.of(2020, 2, 29, 6, 30, 0, 250_000_000);
        LocalDateTime to = LocalDateTime.of(2020, 9, 1, 0, 0);
        PreparedQuery prepared = databases.session.prepare(sql);
        prepared.set(1, from);
        prepared.set(2, to);
        List<List<Object>> locus;
        try (QueryResult r = prepared.execute()) {
            locus = r.toList();
        }
        List<List<Object>> duck = databases.duck.query(sql, from, to).rows();
        assertThat(locus).hasSameSizeAs(duck).isNotEmpty();
        assertThat(locus).allSatisfy(row -> assertThat((LocalDateTime) row.get(1)).isBetween(from, to));
    }

    @Test
    void microsecondsSurviveLiteralsCastsAndTheScansRanges() {
        assertThat(row("SELECT TIMESTAMP '2024-03-01 13:45:07.250001' > TIMESTAMP '2024-03-01 13:45:07.25',"
                + " CAST('2024-03-01 13:45:07.000001' AS TIMESTAMP)")).containsExactly(true,
                LocalDateTime.of(2024, 3, 1, 13, 45, 7, 1_000));
        databases.execute("CREATE TABLE micro (t TIMESTAMP)");
        databases.execute("INSERT INTO micro VALUES ('2024-03-01 13:45:07.250001'), ('2024-03-01 13:45:07.250002')");
        assertThat(row("SELECT count(*) FROM micro WHERE t > TIMESTAMP '2024-03-01 13:45:07.250001'"))
                .containsExactly(1L);
    }

    @Test
    void toCharFormatsAsPostgreSqlDoes() {
        String t = "TIMESTAMP '2024-03-01 13:45:07.250001'";
        assertThat(row("SELECT to_char(" + t + ", 'YYYY-MM-DD HH24:MI:SS.US'), to_char(" + t + ", 'MS'),"
                + " to_char(" + t + ", 'Dy, DD Mon YYYY HH12:MI AM'), to_char(" + t + ", 'FMMonth FMDD, YYYY'),"
                + " to_char(" + t + ", 'Month|MONTH|day|'), to_char(" + t + ", 'Q\"Q\" IYYY-IW ID D DDD WW')"))
                .containsExactly("2024-03-01 13:45:07.250001", "250", "Fri, 01 Mar 2024 01:45 PM", "March 1, 2024",
                        "March    |MARCH    |friday   |", "1Q 2024-09 5 6 061 09");
        assertThat(row("SELECT to_char(DATE '2024-12-30', 'IYYY-IW'), to_char(TIMESTAMP '2024-01-01 00:05',"
                + " 'HH12:MI am'), to_char(CAST(NULL AS DATE), 'YYYY')"))
                .containsExactly("2025-01", "12:05 am", null);
        assertThatThrownBy(() -> row("SELECT to_char(DATE '2024-01-01', 'YYYY \"open')"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.INVALID_PARAMETER));
    }

    @Test
    void generateSeriesStepsTimestampsByIntervalsAsPostgreSqlDoes() {
        assertThat(column("SELECT * FROM generate_series(TIMESTAMP '2024-01-31 10:00', TIMESTAMP '2024-05-01',"
                + " INTERVAL '1 month')")).containsExactly(LocalDateTime.of(2024, 1, 31, 10, 0),
                LocalDateTime.of(2024, 2, 29, 10, 0), LocalDateTime.of(2024, 3, 29, 10, 0),
                LocalDateTime.of(2024, 4, 29, 10, 0));
        assertThat(column("SELECT * FROM generate_series(DATE '2024-01-03', DATE '2024-01-01', INTERVAL '-1 day')"))
                .containsExactly(LocalDateTime.of(2024, 1, 3, 0, 0), LocalDateTime.of(2024, 1, 2, 0, 0),
                        LocalDateTime.of(2024, 1, 1, 0, 0));
        assertThat(column("SELECT * FROM generate_series(TIMESTAMP '2024-01-02', TIMESTAMP '2024-01-01',"
                + " INTERVAL '1 hour')")).isEmpty();
        assertThatThrownBy(() -> column("SELECT * FROM generate_series(TIMESTAMP '2024-01-01',"
                + " TIMESTAMP '2024-01-02', INTERVAL '0' SECOND)"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.INVALID_PARAMETER));
    }

    private static List<Object> column(String sql) {
        try (QueryResult r = databases.session.execute(sql)) {
            return r.toList().stream().map(List::getFirst).toList();
        }
    }

    @Test
    void copyLoadsTimestampsAndABadOneNamesItsLineAndColumn(@TempDir Path dir) throws IOException {
        Path good = dir.resolve("events.csv");
        Files.writeString(good, "id,at\n1,2024-03-01 13:45:07.250001\n2,2024-03-01T08:00\n3,\n4,1999-12-31\n");
        Path bad = dir.resolve("bad.csv");
        Files.writeString(bad, "id,at\n1,2024-03-01 13:45\n2,yesterday\n");
        databases.execute("CREATE TABLE loaded (id INTEGER, at TIMESTAMP)");
        databases.execute("COPY loaded FROM '" + good + "' WITH (FORMAT csv, HEADER true)");
        assertThat(column("SELECT at FROM loaded ORDER BY id")).containsExactly(
                LocalDateTime.of(2024, 3, 1, 13, 45, 7, 250_001_000), LocalDateTime.of(2024, 3, 1, 8, 0), null,
                LocalDateTime.of(1999, 12, 31, 0, 0));
        databases.execute("CREATE TABLE refused (id INTEGER, at TIMESTAMP)");
        assertThatThrownBy(() -> databases.execute("COPY refused FROM '" + bad + "' WITH (FORMAT csv, HEADER true)"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.getMessage()).contains("bad.csv:3").contains("at").contains("yesterday"));
        assertThat(column("SELECT count(*) FROM refused")).containsExactly(0L);
    }

    @Test
    void nowIsOneValuePerStatementAndMovesBetweenStatements() throws InterruptedException {
        List<Object> first = row("SELECT now(), current_timestamp, localtimestamp, now() = transaction_timestamp()");
        assertThat(first.get(0)).isEqualTo(first.get(1)).isEqualTo(first.get(2));
        assertThat(first.get(3)).isEqualTo(true);
        Thread.sleep(5);
        String repeated = "SELECT now() FROM ts LIMIT 1";
        Object a = row(repeated).getFirst();
        Thread.sleep(5);
        Object b = row(repeated).getFirst();
        assertThat((LocalDateTime) b).isAfter((LocalDateTime) a);
    }

    @Test
    void textThatIsNotATimestampAndWhatLocusDbDoesNotHoldAreClearErrors() {
        assertThatThrownBy(() -> row("SELECT CAST('2024-13-01 00:00' AS TIMESTAMP)"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.INVALID_CAST));
        assertThatThrownBy(() -> row("SELECT date_diff('fortnight', t, u) FROM ts"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.getMessage()).contains("fortnight"));
        assertThatThrownBy(() -> databases.execute("CREATE TABLE micros (x TIMESTAMP(3))"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED));
        assertThat(row("SELECT TIMESTAMP '2024-01-31T10:00' + INTERVAL '1 month'").getFirst())
                .isEqualTo(LocalDateTime.of(2024, 2, 29, 10, 0));
    }

    @Test
    void theDifferenceOfTwoTimestampsIsTheDurationBetweenThem() {
        try (QueryResult r = databases.session.execute("SELECT t, u, t - u FROM ts")) {
            List<List<Object>> rows = r.toList();
            assertThat(rows).isNotEmpty();
            for (List<Object> row : rows) {
                Object expected = row.get(0) == null || row.get(1) == null ? null
                        : Duration.between((LocalDateTime) row.get(1), (LocalDateTime) row.get(0));
                assertThat(row.get(2)).as(row.toString()).isEqualTo(expected);
            }
        }
    }

    private static List<Object> row(String sql) {
        try (QueryResult r = databases.session.execute(sql)) {
            return r.toList().getFirst();
        }
    }
}
