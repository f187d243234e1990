package io.locusdb.core.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusDB;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.type.Intervals;
import io.locusdb.core.storage.type.TypeKind;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Period;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * INTERVAL values as PostgreSQL users write them: the difference of two timestamps, PostgreSQL's literals with the
 * units inside the quotes, arithmetic with timestamps, dates, numbers and other intervals, comparisons, EXTRACT,
 * grouping and ordering, text in PostgreSQL's form; and the limits (months with days in one interval) as errors.
 */
class IntervalTest {
    private static LocusDB db;

    @BeforeAll
    static void open() {
        db = SqlTestDatabase.open(null);
        SqlTestDatabase.execute(db, "CREATE TABLE ev (id INTEGER, t0 TIMESTAMP, t1 TIMESTAMP, d DATE, n INTEGER)");
        SqlTestDatabase.execute(db, "INSERT INTO ev VALUES"
                + " (1, TIMESTAMP '2024-01-01 10:00:00', TIMESTAMP '2024-03-05 12:30:00', DATE '2024-01-31', 2),"
                + " (2, TIMESTAMP '2024-03-05 12:30:00', TIMESTAMP '2024-03-05 12:30:01.25', DATE '2024-02-29', 0),"
                + " (3, NULL, TIMESTAMP '2024-01-01 00:00:00', NULL, 1),"
                + " (4, TIMESTAMP '2024-03-05 12:30:00', TIMESTAMP '2024-03-04 11:00:00', DATE '2023-12-31', -1)");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static List<List<Object>> rows(String sql) {
        return SqlTestDatabase.rows(db, sql);
    }

    /** The SQLSTATE the query fails with, once its rows are read. */
    private static SqlState stateOf(String sql) {
        try {
            rows(sql);
        } catch (LocusSqlException e) {
            return e.state();
        }
        throw new AssertionError("expected " + sql + " to fail");
    }

    private static Duration micros(long micros) {
        return Duration.ofSeconds(0, micros * 1000);
    }

    @Test
    void theDifferenceOfTwoTimestampsIsAnIntervalOfDaysAndTime() {
        assertThat(rows("SELECT id, t1 - t0, EXTRACT(EPOCH FROM t1 - t0), EXTRACT(DAY FROM t1 - t0),"
                + " EXTRACT(HOUR FROM t1 - t0) FROM ev ORDER BY id")).containsExactly(
                List.of(1, Duration.ofDays(64).plusHours(2).plusMinutes(30), 5_538_600L, 64L, 2L),
                List.of(2, micros(1_250_000), 1L, 0L, 0L),
                Arrays.asList(3, null, null, null, null),
                List.of(4, Duration.ofHours(-25).minusMinutes(30), -91_800L, -1L, -1L));
    }

    @Test
    void intervalsComputeWithTimestampsDatesNumbersAndEachOther() {
        assertThat(rows("SELECT t0 + (t1 - t0) = t1, (t1 - t0) * 2, (t1 - t0) / 2, -(t1 - t0) + (t1 - t0),"
                + " t1 - t0 > INTERVAL '1 day', t0 + n * INTERVAL '1' DAY FROM ev WHERE id = 1"))
                .containsExactly(List.of(true, Duration.ofDays(128).plusHours(5), Duration.ofDays(32).plusMinutes(75),
                        Duration.ZERO, true, LocalDateTime.of(2024, 1, 3, 10, 0)));
        // Months move the calendar (clamped to the month's end); a DATE moves by whole days only.
        assertThat(rows("SELECT t0 + INTERVAL '1' MONTH * n, d + n * INTERVAL '1 month', d - t0 FROM ev WHERE id = 1"))
                .containsExactly(List.of(LocalDateTime.of(2024, 3, 1, 10, 0), LocalDate.of(2024, 3, 31),
                        Duration.ofDays(29).plusHours(14)));
        assertThat(stateOf("SELECT d + (t1 - t0) FROM ev WHERE id = 1"))
                .isEqualTo(SqlState.INVALID_PARAMETER);
        assertThat(stateOf("SELECT (t1 - t0) / n FROM ev")).isEqualTo(SqlState.DIVISION_BY_ZERO);
    }

    @Test
    void postgresLiteralsWithTheirUnitsInsideTheQuotes() {
        assertThat(rows("SELECT INTERVAL '1 day 2 hours', INTERVAL '1.5 hours', INTERVAL '01:30:00',"
                + " INTERVAL '2 weeks ago', INTERVAL '1 year 2 months', INTERVAL '100 ms', INTERVAL '3' DAY"))
                .containsExactly(List.of(Duration.ofHours(26), Duration.ofMinutes(90), Duration.ofMinutes(90),
                        Duration.ofDays(-14), Period.of(1, 2, 0), Duration.ofMillis(100), Duration.ofDays(3)));
        assertThat(stateOf("SELECT INTERVAL '1 month 2 days'"))
                .isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
    }

    @Test
    void intervalsGroupOrderAndCompare() {
        assertThat(rows("SELECT t1 - t0 AS gap, count(*) FROM ev GROUP BY 1 ORDER BY 1 NULLS LAST"))
                .containsExactly(List.of(Duration.ofHours(-25).minusMinutes(30), 1L), List.of(micros(1_250_000), 1L),
                        List.of(Duration.ofDays(64).plusHours(2).plusMinutes(30), 1L), Arrays.asList(null, 1L));
        assertThat(rows("SELECT min(t1 - t0), max(t1 - t0) FROM ev")).containsExactly(List.of(
                Duration.ofHours(-25).minusMinutes(30), Duration.ofDays(64).plusHours(2).plusMinutes(30)));
        // SUM and AVG as PostgreSQL has them; AVG rounds to the microsecond.
        Duration sum = Duration.ofDays(64).plusHours(2).plusMinutes(30).plusMillis(1250).minusHours(25).minusMinutes(30);
        assertThat(rows("SELECT sum(t1 - t0), avg(t1 - t0), sum(DISTINCT INTERVAL '1' MONTH * n) FROM ev"))
                .containsExactly(List.of(sum, micros(Math.round(sum.toNanos() / 3_000.0)), Period.ofMonths(2)));
        assertThat(stateOf("SELECT avg(n * INTERVAL '1' MONTH) FROM ev")).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
        assertThat(rows("SELECT id % 2, avg(t1 - t0) FROM ev GROUP BY 1 ORDER BY 1")).containsExactly(
                List.of(0, Duration.ofHours(-25).minusMinutes(30).plusMillis(1250).dividedBy(2)),
                List.of(1, Duration.ofDays(64).plusHours(2).plusMinutes(30)));
        assertThat(rows("SELECT id FROM ev WHERE t1 - t0 BETWEEN INTERVAL '0' SECOND AND INTERVAL '1 minute'"))
                .containsExactly(List.of(2));
    }

    @Test
    void textIsPostgresqls() {
        assertThat(rows("SELECT CAST(t1 - t0 AS VARCHAR) FROM ev ORDER BY id")).containsExactly(
                List.of("64 days 02:30:00"), List.of("00:00:01.25"), Arrays.asList((Object) null),
                List.of("-1 days -01:30:00"));
        assertThat(Intervals.text(TypeKind.INTERVAL_YEAR_MONTH, 14)).isEqualTo("1 year 2 mons");
        assertThat(Intervals.text(TypeKind.INTERVAL_YEAR_MONTH, -25)).isEqualTo("-2 years -1 mons");
        assertThat(Intervals.text(TypeKind.INTERVAL_YEAR_MONTH, 0)).isEqualTo("00:00:00");
        assertThat(Intervals.text(TypeKind.INTERVAL_DAY_TIME, 86_400_000_000L)).isEqualTo("1 day");
        assertThat(Intervals.text(TypeKind.INTERVAL_DAY_TIME, -1_500_000L)).isEqualTo("-00:00:01.5");
    }
}
