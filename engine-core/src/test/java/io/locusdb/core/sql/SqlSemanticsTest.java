package io.locusdb.core.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
import io.locusdb.core.TestQueries;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.TestStorage;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * One semantics for SQL: common types that keep every digit, constants folded exactly as columns compute,
 * parameters as the text has them and typed from their surroundings, ordinals and aliases in GROUP BY.
 */
class SqlSemanticsTest {
    private static LocusDB db;

    @BeforeAll
    static void open() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()));
        try (Session s = db.connect()) {
            s.execute("CREATE TABLE v (id BIGINT NOT NULL, i INTEGER, b BIGINT, d2 DECIMAL(15,2), d4 DECIMAL(9,4),"
                    + " x DOUBLE, s VARCHAR, dt DATE) PARTITION BY HASH(id) PARTITIONS 2");
            s.execute("INSERT INTO v VALUES (1, 7, 155190, 194029.55, 0.0450, 35.5, 'abc', DATE '1996-08-17'),"
                    + " (2, -3, 12345678901, 975.47, 12.3456, 2.5, 'x', DATE '2000-02-29'),"
                    + " (3, NULL, 123456789012345678, NULL, NULL, -2.5, NULL, NULL)");
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static List<List<Object>> rows(String sql, Object... parameters) {
        return TestQueries.rows(db, sql, parameters);
    }

    private static Object value(String sql, Object... parameters) {
        List<List<Object>> rows = rows(sql, parameters);
        assertThat(rows).as(sql).hasSize(1);
        return rows.getFirst().getFirst();
    }

    @Test
    void aValuesLiteralItsColumnsCommonTypeCannotHoldIsRefusedByName() {
        // The common type keeps all 17 fraction digits, so 4 integer digits do not fit: 22003, not a planner crash.
        assertThatThrownBy(() -> rows("SELECT a FROM (VALUES (0.14285714285714285), (8571.428571428572)) t(a)"))
                .isInstanceOfSatisfying(LocusSqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.NUMERIC_OUT_OF_RANGE);
                    assertThat(e.getMessage()).contains("8571.428571428572");
                });
        assertThat(rows("SELECT a FROM (VALUES (CAST(0.14285714285714285 AS DOUBLE)), (8571.428571428572)) t(a)"
                + " ORDER BY a")).containsExactly(List.of(0.14285714285714285), List.of(8571.428571428572));
        assertThat(rows("SELECT a FROM (VALUES (0.5), (8571.25)) t(a) ORDER BY a"))
                .containsExactly(List.of(new BigDecimal("0.50")), List.of(new BigDecimal("8571.25")));
        // Eighteen fraction digits and no integer digit fit.
        assertThat(rows("SELECT a FROM (VALUES (0.000000000000000001), (0.5)) t(a) ORDER BY a")).containsExactly(
                List.of(new BigDecimal("0.000000000000000001")), List.of(new BigDecimal("0.500000000000000000")));
    }

    @Test
    void substrIsSubstringByItsOtherName() {
        assertThat(rows("SELECT substr(s, 2, 1), substr(s, 2), substr(s, 0, 2), substr(s, -1) FROM v WHERE id = 1"))
                .containsExactly(List.of("b", "bc", "a", "abc"));
        assertThat(value("SELECT substr(s, 1, 2) FROM v WHERE id = 3")).isNull();
    }

    @Test
    void comparisonsWithNullInHavingPlanAndKeepNoGroup() {
        // Calcite's predicate pull-up asserted on these (sqllogictest's select files have them).
        assertThat(rows("SELECT -i FROM v GROUP BY i HAVING NULL BETWEEN NULL AND NULL")).isEmpty();
        assertThat(rows("SELECT -i FROM v GROUP BY i HAVING NULL = NULL")).isEmpty();
        assertThat(rows("SELECT -i FROM v WHERE NULL BETWEEN NULL AND NULL")).isEmpty();
        assertThat(rows("SELECT -i FROM v GROUP BY i HAVING NOT NULL BETWEEN 1 AND NULL")).isEmpty();
    }

    @Test
    void textLiteralsHoldAnyUnicodeCharacter() {
        // Calcite's default character set, ISO-8859-1, could not hold these: the statements failed to plan.
        assertThat(value("SELECT '中文'")).isEqualTo("中文");
        assertThat(value("SELECT length('😀ab') + strpos('Ωmega', 'm')")).isEqualTo(5);
        assertThat(rows("SELECT id FROM v WHERE s <> 'ünïcödé ✓' ORDER BY id")).containsExactly(List.of(1L),
                List.of(2L));
        assertThat(value("SELECT upper('ünïcödé') || ' ' || lower('ΑΒΓ')")).isEqualTo("ÜNÏCÖDÉ αβγ");
    }

    @Test
    void similarToMatchesTheWholeTextWithTheStandardsPatterns() {
        assertThat(rows("SELECT 'abc' SIMILAR TO 'abc', 'abc' SIMILAR TO 'a', 'abc' SIMILAR TO '%(b|d)%',"
                + " 'abc' SIMILAR TO '(b|c)%'")).containsExactly(List.of(true, false, true, false));
        assertThat(rows("SELECT 'abc' NOT SIMILAR TO 'a%', 'a.c' SIMILAR TO 'a.c', 'abc' SIMILAR TO 'a.c',"
                + " 'a%c' SIMILAR TO 'a#%c' ESCAPE '#', 'abbbc' SIMILAR TO 'ab{2,3}c', 'ab' SIMILAR TO '_b'"))
                .containsExactly(List.of(false, true, false, true, true, true));
        assertThat(rows("SELECT id FROM v WHERE s SIMILAR TO '[a-c]+' ORDER BY id")).containsExactly(List.of(1L));
        assertThat(rows("SELECT '5' SIMILAR TO '[[:digit:]]', 'x' SIMILAR TO '[[:digit:]]', '&' SIMILAR TO '[&]',"
                + " '[' SIMILAR TO '[[]', 'a' SIMILAR TO '[&&a]'")).containsExactly(List.of(true, false, true, true,
                true));
        assertThat(value("SELECT CAST(NULL AS VARCHAR) SIMILAR TO 'a'")).isNull();
        assertThatThrownBy(() -> rows("SELECT 'a' SIMILAR TO '('"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.INVALID_REGULAR_EXPRESSION));
        assertThatThrownBy(() -> rows("SELECT 'a' SIMILAR TO 'a' ESCAPE 'xy'"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.INVALID_ESCAPE_SEQUENCE));
    }

    @Test
    void ilikeMatchesWhateverTheCase() {
        assertThat(rows("SELECT id FROM v WHERE s ILIKE 'A%' ORDER BY id")).containsExactly(List.of(1L));
        assertThat(rows("SELECT id FROM v WHERE s NOT ILIKE '%B%' ORDER BY id")).containsExactly(List.of(2L));
        assertThat(value("SELECT 'X_Y' ILIKE 'x!_y' ESCAPE '!'")).isEqualTo(true);
        assertThat(value("SELECT 'XzY' ILIKE 'x!_y' ESCAPE '!'")).isEqualTo(false);
        assertThat(value("SELECT CAST(NULL AS VARCHAR) ILIKE 'a'")).isNull();
    }

    // ---------------------------------------------------------------- 1. common types keep their scale

    @Test
    void theCommonTypeOfExactNumbersKeepsEveryFractionDigit() {
        assertThat(value("SELECT COALESCE(d2, b) FROM v WHERE id = 1")).isEqualTo(new BigDecimal("194029.55"));
        assertThat(value("SELECT COALESCE(d2, i) FROM v WHERE id = 1")).isEqualTo(new BigDecimal("194029.55"));
        assertThat(value("SELECT CASE WHEN i > 0 THEN d2 * d4 ELSE d2 * i END FROM v WHERE id = 1"))
                .isEqualTo(new BigDecimal("8731.329750"));
        assertThat(value("SELECT CASE WHEN i > 0 THEN d2 ELSE d4 END FROM v WHERE id = 2"))
                .isEqualTo(new BigDecimal("12.3456"));
        assertThat(value("SELECT NULLIF(d4, i) FROM v WHERE id = 1")).isEqualTo(new BigDecimal("0.0450"));
        assertThat(value("SELECT COALESCE(d4, b, d2) FROM v WHERE id = 2")).isEqualTo(new BigDecimal("12.3456"));
        assertThat(value("SELECT SUM(CASE WHEN id < 3 THEN d4 ELSE i END) FROM v"))
                .isEqualTo(new BigDecimal("12.3906"));
        assertThat(rows("SELECT id FROM v WHERE COALESCE(d4, i) > 0.04 AND COALESCE(d4, i) < 0.05"))
                .as("filters see the unrounded value").containsExactly(List.of(1L));
    }

    @Test
    void aValueTheCommonTypeCannotHoldFailsInsteadOfBeingRounded() {
        assertThatThrownBy(() -> rows("SELECT COALESCE(d4, b) FROM v"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.NUMERIC_OUT_OF_RANGE));
    }

    // ---------------------------------------------------------------- 2. folding means what the engine computes

    /** Expressions over one value: folded as a constant they must give what they give over a column. */
    static final List<String[]> FOLDED = List.of(
            new String[] {"EXTRACT(DOW FROM %s)", "DATE '1996-08-17'", "dt", "1"},
            new String[] {"EXTRACT(DOY FROM %s)", "DATE '2000-02-29'", "dt", "2"},
            new String[] {"EXTRACT(WEEK FROM %s)", "DATE '1996-08-17'", "dt", "1"},
            new String[] {"EXTRACT(QUARTER FROM %s)", "DATE '1996-08-17'", "dt", "1"},
            new String[] {"CAST(%s AS BIGINT)", "35.5E0", "x", "1"},
            new String[] {"CAST(%s AS INTEGER)", "2.5E0", "x", "2"},
            new String[] {"CAST(%s AS BIGINT)", "-2.5E0", "x", "3"},
            new String[] {"CAST(%s AS INTEGER)", "CAST(194029.55 AS DECIMAL(15,2))", "d2", "1"},
            new String[] {"CAST(%s AS VARCHAR)", "CAST(0.0450 AS DECIMAL(9,4))", "d4", "1"},
            new String[] {"CAST(%s AS VARCHAR)", "DATE '2000-02-29'", "dt", "2"},
            new String[] {"%s / 2", "-3", "i", "2"},
            new String[] {"2 / (%s * 1.0)", "7", "i", "1"},
            new String[] {"MOD(%s, 2)", "-3", "i", "2"},
            new String[] {"ROUND(%s, 1)", "CAST(12.3456 AS DECIMAL(9,4))", "d4", "2"},
            new String[] {"CAST(ROUND(%s, 0) AS VARCHAR)", "CAST(194029.55 AS DECIMAL(15,2))", "d2", "1"},
            new String[] {"%s + INTERVAL '1' MONTH", "DATE '2000-02-29'", "dt", "2"},
            new String[] {"CASE WHEN %s > 7 THEN 'big' ELSE 'small' END", "7", "i", "1"},
            new String[] {"SUBSTRING(%s FROM 2 FOR 5)", "'abc'", "s", "1"});

    @TestFactory
    Stream<DynamicTest> constantsFoldToWhatTheEngineComputesPerRow() {
        return FOLDED.stream().map(c -> dynamicTest(String.format(c[0], c[2]), () -> {
            Object perRow = value("SELECT " + String.format(c[0], c[2]) + " FROM v WHERE id = " + c[3]);
            Object folded = value("SELECT " + String.format(c[0], c[1]) + " FROM v WHERE id = " + c[3]);
            Object pinned = value("SELECT " + String.format(c[0], c[2]) + " FROM v WHERE " + c[2] + " = " + c[1]);
            assertThat(folded).as("folded constant").isEqualTo(perRow);
            assertThat(pinned).as("column pinned to the constant by the WHERE clause").isEqualTo(perRow);
        }));
    }

    @Test
    void foldedConstantsFollowTheDialect() {
        assertThat(rows("SELECT EXTRACT(DOW FROM DATE '1996-08-17'), CAST(35.5 AS BIGINT), 2 / 3.0,"
                + " CAST(0.50 AS VARCHAR), CAST(2.5E0 AS INTEGER), ROUND(9.6789, 0), ROUND(2805.28, 1) FROM v"
                + " WHERE id = 1")).containsExactly(Arrays.asList(6L, 36L, new BigDecimal("0.666667"), "0.50", 2,
                new BigDecimal("10"), new BigDecimal("2805.3")));
    }

    @Test
    void divisionByZeroIsAnErrorUnlessACaseOrAConditionGuardsIt() {
        // As in PostgreSQL and DuckDB: 22012 for every numeric type, for / and MOD, folded constant or column.
        for (String sql : List.of("SELECT i / 0 FROM v WHERE id = 1", "SELECT x / (i - 7) FROM v WHERE id = 1",
                "SELECT d2 / 0 FROM v", "SELECT MOD(b, i - i) FROM v WHERE id = 2", "SELECT 5.0E0 / 0 FROM v",
                "SELECT id FROM v WHERE 100 / (i + 3) > 1")) {
            assertThatThrownBy(() -> rows(sql)).as(sql).isInstanceOfSatisfying(LocusSqlException.class,
                    e -> assertThat(e.state()).isEqualTo(SqlState.DIVISION_BY_ZERO));
        }
        // A zero a CASE or a condition rules out raises nothing: the division is computed for the other rows only.
        assertThat(rows("SELECT id, CASE WHEN i + 3 = 0 THEN NULL ELSE 300 / (i + 3) END FROM v ORDER BY id"))
                .containsExactly(List.of(1L, 30), Arrays.asList(2L, null), Arrays.asList(3L, null));
        assertThat(rows("SELECT id FROM v WHERE i + 3 <> 0 AND 100 / (i + 3) > 5 ORDER BY id"))
                .containsExactly(List.of(1L));
        assertThat(rows("SELECT id FROM v WHERE i = -3 OR 100 / (i + 3) > 5 ORDER BY id"))
                .containsExactly(List.of(1L), List.of(2L));
        assertThat(rows("SELECT COALESCE(NULLIF(i + 3, 0), 1) FROM v WHERE id = 2")).containsExactly(List.of(1));
    }

    // ---------------------------------------------------------------- 3. parameters are the text's markers

    @Test
    void everyMarkerOfTheTextIsAParameterEvenWhenThePlanDropsIt() {
        String[] statements = {
            "SELECT count(*) FROM v WHERE id = ? AND FALSE",
            "SELECT count(*) FROM v WHERE id = ? AND i <> i",
            "SELECT count(*) FROM v WHERE id = ? AND id IS NULL",
            "SELECT count(*) FROM v WHERE id = ? AND i BETWEEN 5 AND 1",
            "SELECT count(*) FROM v WHERE id = ? AND i NOT IN (1, NULL)",
            "SELECT count(*) FROM v WHERE (id = ? OR TRUE) AND i = ?",
        };
        try (Session s = db.connect()) {
            for (String sql : statements) {
                PreparedQuery q = s.prepare(sql);
                int markers = (int) sql.chars().filter(ch -> ch == '?').count();
                assertThat(q.parameterCount()).as(sql).isEqualTo(markers);
                for (int p = 1; p <= markers; p++) {
                    q.set(p, 7);
                }
                try (QueryResult r = q.execute()) {
                    assertThat(r.toList()).as(sql).hasSize(1);
                }
            }
        }
    }

    // ---------------------------------------------------------------- 4. parameter types from their surroundings

    @Test
    void parametersInsideOperandsOfOtherOperatorsTakeTheirTypeFromTheirSurroundings() {
        assertThat(rows("SELECT (CASE WHEN id = ? THEN 1 ELSE 2 END) + 1 FROM v ORDER BY id", 2)).containsExactly(
                List.of(3), List.of(2), List.of(3));
        assertThat(rows("SELECT (CASE WHEN i IN (?, ?) THEN 10 ELSE 20 END) * 2 FROM v ORDER BY id", 7, -3))
                .containsExactly(List.of(20), List.of(20), List.of(40));
        assertThat(value("SELECT SUM(CASE WHEN s LIKE ? THEN 1 ELSE 0 END) FROM v", "a%")).isEqualTo(1L);
        assertThat(value("SELECT SUM(CASE WHEN s NOT LIKE ? THEN i ELSE 0 END) FROM v", "a%")).isEqualTo(-3L);
        assertThat(rows("SELECT (CASE WHEN id = 1 THEN ? ELSE d2 END) - 1 FROM v ORDER BY id",
                new BigDecimal("0.25"))).containsExactly(List.of(new BigDecimal("-0.75")),
                List.of(new BigDecimal("974.47")), Arrays.asList((Object) null));
        assertThat(rows("SELECT CASE WHEN i > 0 THEN CASE WHEN s NOT IN (?) THEN 1 END END FROM v ORDER BY id",
                "x")).containsExactly(List.of(1), Arrays.asList((Object) null), Arrays.asList((Object) null));
    }

    @Test
    void aStringParameterIsNotCutToTheLengthOfWhatItIsComparedWith() {
        assertThat(rows("SELECT id FROM v WHERE 'a' NOT IN ('', ?) AND s = ? ORDER BY id", "abc", "abc"))
                .containsExactly(List.of(1L));
        assertThat(rows("SELECT id FROM v WHERE NOT ('a' NOT IN ('', ?) AND s IN (?)) ORDER BY id", "abc", "abc"))
                .containsExactly(List.of(2L));
        assertThat(value("SELECT count(*) FROM v WHERE 'x' = ?", "xyz")).isEqualTo(0L);
    }

    @Test
    void aSimplifiedBranchKeepsTheTypeOfItsExpression() {
        assertThat(rows("SELECT CAST(COALESCE(CAST(NULL AS DECIMAL(12,4)), i) AS VARCHAR),"
                + " CAST(CASE WHEN FALSE THEN 1.5 ELSE i END AS VARCHAR),"
                + " CAST(CAST(CAST(i AS DECIMAL(12,2)) AS DECIMAL(14,3)) AS VARCHAR),"
                + " COALESCE(CAST(NULL AS DECIMAL(12,4)), i) / 2 FROM v WHERE id = 2")).containsExactly(
                List.of("-3.0000", "-3.0", "-3.000", new BigDecimal("-1.500000")));
    }

    @Test
    void aParameterNothingTypesIsAnErrorNamingTheProblemNotAJavaException() {
        assertThatThrownBy(() -> rows("SELECT ? FROM v"))
                .isInstanceOfSatisfying(LocusSqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.INDETERMINATE_DATATYPE);
                    assertThat(e.getMessage()).doesNotContain("java.", "Exception");
                });
    }

    // ---------------------------------------------------------------- 5. ordinals and aliases

    @Test
    void groupByAndOrderByTakeOrdinalsAndAliases() {
        List<List<Object>> expected = new ArrayList<>();
        expected.add(Arrays.asList(null, 1L));
        expected.add(Arrays.asList("abc", 1L));
        expected.add(Arrays.asList("x", 1L));
        assertThat(rows("SELECT s, count(*) FROM v GROUP BY 1 ORDER BY 1 NULLS FIRST")).isEqualTo(expected);
        assertThat(rows("SELECT s AS k, count(*) AS n FROM v GROUP BY k ORDER BY k NULLS FIRST")).isEqualTo(expected);
        assertThat(rows("SELECT EXTRACT(YEAR FROM dt) AS y, count(*) FROM v GROUP BY y HAVING y > 1999"))
                .containsExactly(List.of(2000L, 1L));
        assertThat(rows("SELECT i + ? AS k, count(*) FROM v GROUP BY 1 ORDER BY 1 NULLS LAST", 10))
                .containsExactly(Arrays.asList(7, 1L), Arrays.asList(17, 1L), Arrays.asList(null, 1L));
    }
}
