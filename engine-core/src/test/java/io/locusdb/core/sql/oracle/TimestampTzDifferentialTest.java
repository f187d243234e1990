package io.locusdb.core.sql.oracle;

import io.locusdb.core.PreparedQuery;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.type.ColumnType;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * TIMESTAMP WITH TIME ZONE against DuckDB (with its ICU time zones) in three session zones — UTC, one with summer
 * time (America/New_York) and one with a half-hour offset (Asia/Kolkata) — on random instants that cluster around
 * the changes to and from summer time: text in and out, comparisons with TIMESTAMP and DATE, EXTRACT, date_trunc,
 * interval arithmetic (days and months on the wall clock, hours on the time line), casts, AT TIME ZONE,
 * to_timestamp, grouping, joining and ordering.
 */
class TimestampTzDifferentialTest {
    private static final long SEED = 20_261_129L;
    private static final List<String> ZONES = List.of("UTC", "America/New_York", "Asia/Kolkata");
    private static OracleDatabases databases;

    @BeforeAll
    static void load() {
        databases = OracleDatabases.open();
        String create = "CREATE TABLE tz (id INTEGER, t TIMESTAMPTZ, u TIMESTAMP WITH TIME ZONE, l TIMESTAMP, d DATE)";
        databases.execute(create);
        databases.duck.execute(create);
        Random random = new Random(SEED);
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            rows.add("(" + i + ", " + maybe(random, zoned(randomInstant(random), random)) + ", "
                    + maybe(random, zoned(randomInstant(random), random)) + ", "
                    + maybe(random, "TIMESTAMP '" + text(randomInstant(random).toLocalDateTime()) + "'") + ", "
                    + maybe(random, "DATE '" + LocalDate.of(2020, 1, 1).plusDays(random.nextInt(1_200)) + "'") + ")");
        }
        String insert = "INSERT INTO tz VALUES " + String.join(", ", rows);
        databases.execute(insert);
        databases.duck.execute(insert);
    }

    /** Instants near New York's and Berlin's changes of clock, at midnights, and anywhere in 2020-2023. */
    private static OffsetDateTime randomInstant(Random random) {
        List<LocalDateTime> changes = List.of(LocalDateTime.of(2021, 3, 14, 7, 0), LocalDateTime.of(2021, 11, 7, 6, 0),
                LocalDateTime.of(2022, 3, 27, 1, 0), LocalDateTime.of(2022, 10, 30, 1, 0));
        LocalDateTime utc = switch (random.nextInt(4)) {
            case 0 -> changes.get(random.nextInt(changes.size())).plusMinutes(random.nextInt(6 * 60) - 3 * 60);
            case 1 -> LocalDate.of(2020, 1, 1).plusDays(random.nextInt(1_200)).atStartOfDay();
            default -> LocalDate.of(2020, 1, 1).atStartOfDay().plusNanos(random.nextLong(1_200 * 86_400_000_000L)
                    * 1_000);
        };
        return utc.atOffset(ZoneOffset.UTC);
    }

    /** The instant written with one of several offsets (the text differs, the instant does not). */
    private static String zoned(OffsetDateTime instant, Random random) {
        ZoneOffset offset = List.of(ZoneOffset.UTC, ZoneOffset.ofHours(-5), ZoneOffset.ofHoursMinutes(5, 30),
                ZoneOffset.ofHours(2)).get(random.nextInt(4));
        OffsetDateTime shown = instant.withOffsetSameInstant(offset);
        return "TIMESTAMPTZ '" + text(shown.toLocalDateTime()) + (offset.getTotalSeconds() == 0 ? "+00"
                : offset.getId()) + "'";
    }

    private static String text(LocalDateTime t) {
        return t.toLocalDate() + " " + t.toLocalTime();
    }

    private static String maybe(Random random, String value) {
        return random.nextInt(9) == 0 ? "NULL" : value;
    }

    @AfterEach
    void backToUtc() {
        inZone("UTC");
    }

    @AfterAll
    static void close() {
        if (databases != null) {
            databases.close();
        }
    }

    private static void inZone(String zone) {
        databases.execute("SET TIME ZONE '" + zone + "'");
        databases.duck.execute("SET TimeZone = '" + zone + "'");
    }

    @TestFactory
    Stream<DynamicTest> zonedQueriesAgreeWithDuckDbInEverySessionZone() {
        List<String> queries = List.of(
                "SELECT * FROM tz",
                "SELECT id FROM tz WHERE t >= TIMESTAMPTZ '2021-03-14 06:00:00+00' AND t < TIMESTAMPTZ"
                        + " '2021-11-07 12:00:00+05:30'",
                "SELECT id FROM tz WHERE t >= '2021-03-14 01:30' AND u < '2022-10-30 02:30'",
                "SELECT id FROM tz WHERE t > TIMESTAMP '2021-03-14 02:30:00' AND u <= DATE '2022-03-27'",
                "SELECT id, t < u, t = u, t = l, l < t, d < t, d = CAST(t AS DATE) FROM tz",
                "SELECT id, extract(year FROM t), extract(month FROM t), extract(day FROM t), extract(hour FROM t),"
                        + " extract(minute FROM t), extract(dow FROM t), extract(doy FROM t) FROM tz",
                "SELECT id, extract(second FROM t), extract(microsecond FROM t), extract(epoch FROM t) FROM tz",
                "SELECT id, date_trunc('hour', t), date_trunc('day', t), date_trunc('week', t),"
                        + " date_trunc('month', t), date_trunc('year', t) FROM tz",
                "SELECT id, t + INTERVAL '90 minutes', t - INTERVAL '45 seconds', t + INTERVAL '3 hours',"
                        + " t + INTERVAL '1 month', t - INTERVAL '1 year' FROM tz",
                "SELECT id, t + INTERVAL '1 day', t - INTERVAL '2 days', t + INTERVAL '2 weeks' FROM tz",
                "SELECT id, CAST(t AS DATE), CAST(t AS TIMESTAMP), CAST(l AS TIMESTAMPTZ), CAST(d AS TIMESTAMPTZ)"
                        + " FROM tz",
                "SELECT id, CAST(CAST(t AS VARCHAR) AS TIMESTAMPTZ), CAST(CAST(l AS VARCHAR) AS TIMESTAMPTZ) FROM tz",
                "SELECT date_trunc('day', t) AS day, count(*), min(u), max(u) FROM tz GROUP BY 1",
                "SELECT min(t), max(t), count(t), count(DISTINCT t), count(DISTINCT date_trunc('month', u)) FROM tz",
                "SELECT a.id, b.id FROM tz a JOIN tz b ON date_trunc('day', a.t) = date_trunc('day', b.u)",
                "SELECT a.id, b.id FROM tz a JOIN tz b ON a.t = b.u",
                "SELECT id, t FROM tz WHERE t IS NOT NULL ORDER BY t DESC, id LIMIT 25",
                "SELECT id, row_number() OVER (PARTITION BY extract(year FROM t) ORDER BY t, id) FROM tz",
                "SELECT id, greatest(t, u), least(t, u), coalesce(t, u, TIMESTAMPTZ '2000-01-01 00:00:00+00') FROM tz",
                "SELECT id, CASE WHEN t > u THEN t ELSE u END FROM tz",
                "SELECT id, t AT TIME ZONE 'America/New_York', l AT TIME ZONE 'Asia/Kolkata',"
                        + " (t AT TIME ZONE 'UTC') AT TIME ZONE 'Europe/Berlin', CAST(d AS TIMESTAMP) AT TIME ZONE 'UTC'"
                        + " FROM tz",
                "SELECT id, to_timestamp(id * 86400.5 + 1600000000), to_timestamp(id) AT TIME ZONE 'UTC' FROM tz",
                "SELECT * FROM generate_series(TIMESTAMPTZ '2021-03-12 00:00:00', TIMESTAMPTZ '2021-03-16 00:00:00',"
                        + " INTERVAL '1 day')",
                "SELECT * FROM generate_series(TIMESTAMPTZ '2021-11-06 22:00:00+00', TIMESTAMPTZ"
                        + " '2021-11-07 12:00:00+00', INTERVAL '90 minutes')",
                "SELECT * FROM generate_series(TIMESTAMPTZ '2021-01-31 10:00:00', TIMESTAMPTZ '2021-12-31 00:00:00',"
                        + " INTERVAL '1 month')");
        List<DynamicTest> tests = new ArrayList<>();
        for (String zone : ZONES) {
            for (String sql : queries) {
                tests.add(dynamicTest(zone + ": " + sql, () -> {
                    inZone(zone);
                    ResultComparison.assertAgrees(databases.session, databases.duck, sql, sql.contains("ORDER BY t DESC"));
                }));
            }
        }
        return tests.stream();
    }

    @Test
    void textWithoutAnOffsetIsReadInTheSessionsZoneAndShownWithItsOffset() {
        inZone("America/New_York");
        assertThat(row("SELECT TIMESTAMPTZ '2024-07-01 12:00', CAST(TIMESTAMPTZ '2024-07-01 12:00' AS VARCHAR),"
                + " CAST(TIMESTAMPTZ '2024-01-01 12:00:00.25+00' AS VARCHAR)"))
                .containsExactly(OffsetDateTime.of(2024, 7, 1, 16, 0, 0, 0, ZoneOffset.UTC), "2024-07-01 12:00:00-04",
                        "2024-01-01 07:00:00.25-05");
        inZone("Asia/Kolkata");
        assertThat(row("SELECT CAST(TIMESTAMPTZ '2024-07-01 12:00+00' AS VARCHAR)"))
                .containsExactly("2024-07-01 17:30:00+05:30");
    }

    @Test
    void setShowAndResetTheSessionsTimeZoneAsPostgreSqlSpellsThem() {
        databases.execute("SET timezone TO 'europe/berlin'");
        assertThat(row("SHOW TIME ZONE")).containsExactly("Europe/Berlin");
        databases.execute("SET TIME ZONE -7");
        assertThat(row("SHOW timezone")).containsExactly("-07:00");
        // POSIX offsets count hours west of Greenwich, as PostgreSQL reads them.
        databases.execute("SET timezone = 'UTC+3'");
        assertThat(row("SELECT CAST(TIMESTAMPTZ '2024-01-01 12:00+00' AS VARCHAR)"))
                .containsExactly("2024-01-01 09:00:00-03");
        databases.execute("RESET timezone");
        assertThat(row("SHOW TIME ZONE")).containsExactly("UTC");
        assertThatThrownBy(() -> databases.execute("SET TIME ZONE 'Mars/Olympus_Mons'"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.INVALID_PARAMETER));
        assertThat(row("SHOW TIME ZONE")).containsExactly("UTC");
    }

    @Test
    void aCachedPlanIsNotBoundToTheZoneItWasFirstPlannedIn() {
        String sql = "SELECT CAST(TIMESTAMPTZ '2024-07-01 12:00' AS VARCHAR), extract(hour FROM"
                + " TIMESTAMPTZ '2024-07-01 12:00+00'), CAST(CAST('2024-07-01 12:00' AS TIMESTAMPTZ) AS TIMESTAMP)";
        inZone("UTC");
        assertThat(row(sql)).containsExactly("2024-07-01 12:00:00+00", 12L, LocalDateTime.of(2024, 7, 1, 12, 0));
        inZone("Asia/Kolkata");
        assertThat(row(sql)).containsExactly("2024-07-01 12:00:00+05:30", 17L, LocalDateTime.of(2024, 7, 1, 12, 0));
        // A string compared with an instant is read in the zone of each run, not of the first.
        String count = "SELECT count(*) FROM tz WHERE t > '2021-03-14 06:00'";
        inZone("America/New_York");
        Object inNewYork = row(count).getFirst();
        assertThat(inNewYork).isEqualTo(databases.duck.query(count).rows().getFirst().getFirst());
        inZone("UTC");
        Object inUtc = row(count).getFirst();
        assertThat(inUtc).isEqualTo(databases.duck.query(count).rows().getFirst().getFirst())
                .isNotEqualTo(inNewYork);
    }

    @Test
    void constantsComparedWithInstantsRangeTheScanInTheSessionsZone() {
        inZone("America/New_York");
        String plan;
        try (QueryResult r = databases.session.execute("EXPLAIN SELECT id FROM tz WHERE t > '2021-03-14 06:00'"
                + " AND u < TIMESTAMP '2022-01-01 00:00'")) {
            plan = r.toList().stream().map(line -> String.valueOf(line.getFirst())).reduce("", (x, y) -> x + y + "\n");
        }
        assertThat(plan).contains("t > TIMESTAMPTZ '2021-03-14 10:00:00+00'")
                .contains("u < TIMESTAMPTZ '2022-01-01 05:00:00+00'");
    }

    @Test
    void aPreparedStatementBindsInstantsAndWallClockTimes() {
        inZone("America/New_York");
        PreparedQuery prepared = databases.session.prepare("SELECT CAST(? AS TIMESTAMPTZ), CAST(? AS TIMESTAMPTZ),"
                + " count(*) FILTER (WHERE t >= ?) FROM tz");
        OffsetDateTime from = OffsetDateTime.of(2021, 3, 14, 6, 30, 0, 0, ZoneOffset.UTC);
        prepared.set(1, OffsetDateTime.of(2024, 7, 1, 12, 0, 0, 0, ZoneOffset.ofHours(2)));
        prepared.set(2, LocalDateTime.of(2024, 7, 1, 12, 0));
        prepared.set(3, from);
        List<Object> bound;
        try (QueryResult r = prepared.execute()) {
            bound = r.toList().getFirst();
        }
        assertThat(bound.subList(0, 2)).containsExactly(OffsetDateTime.of(2024, 7, 1, 10, 0, 0, 0, ZoneOffset.UTC),
                OffsetDateTime.of(2024, 7, 1, 16, 0, 0, 0, ZoneOffset.UTC));
        assertThat(bound.get(2)).isEqualTo(databases.duck.query("SELECT count(*) FROM tz WHERE t >= ?", from).rows()
                .getFirst().getFirst());
    }

    @Test
    void columnsKeepTheirTypeThroughDdlAndBadTextNamesTheValue() {
        databases.execute("CREATE TABLE zoned (a TIMESTAMP WITH TIME ZONE, b TIMESTAMPTZ(6))");
        try (QueryResult r = databases.session.execute("SELECT a, b FROM zoned")) {
            assertThat(r.columns()).allSatisfy(c -> assertThat(c.type()).isEqualTo(ColumnType.TIMESTAMP_TZ));
        }
        databases.execute("INSERT INTO zoned VALUES ('2024-03-01 13:45:07.250001+01', TIMESTAMPTZ '2024-03-01 12:00')");
        assertThat(row("SELECT a, b FROM zoned")).containsExactly(
                OffsetDateTime.of(2024, 3, 1, 12, 45, 7, 250_001_000, ZoneOffset.UTC),
                OffsetDateTime.of(2024, 3, 1, 12, 0, 0, 0, ZoneOffset.UTC));
        assertThatThrownBy(() -> row("SELECT CAST('2024-03-01 12:00 Nowhere/City' AS TIMESTAMPTZ)"))
                .isInstanceOfSatisfying(LocusSqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.INVALID_CAST);
                    assertThat(e.getMessage()).contains("Nowhere/City");
                });
        assertThatThrownBy(() -> databases.execute("CREATE TABLE bad (a TIMESTAMPTZ(3))"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED));
    }

    private static List<Object> row(String sql) {
        try (QueryResult r = databases.session.execute(sql)) {
            return r.toList().getFirst();
        }
    }
}
