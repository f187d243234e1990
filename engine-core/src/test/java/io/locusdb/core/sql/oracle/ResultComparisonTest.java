package io.locusdb.core.sql.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.type.ColumnType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The comparison of the oracle tests: what counts as equal, and what the failure says. */
class ResultComparisonTest {
    private static ResultComparison.LocusRows locus(List<ResultColumn> columns, List<?>... rows) {
        return new ResultComparison.LocusRows(columns, rows(rows));
    }

    private static DuckOracle.DuckRows duck(List<String> names, List<String> types, List<?>... rows) {
        return new DuckOracle.DuckRows(names, types, rows(rows));
    }

    @SuppressWarnings("unchecked")
    private static List<List<Object>> rows(List<?>... rows) {
        return Arrays.stream(rows).map(r -> (List<Object>) r).toList();
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    private static final List<ResultColumn> SUMS = List.of(new ResultColumn("n", ColumnType.BIGINT),
            new ResultColumn("total", ColumnType.decimal(15, 2)), new ResultColumn("mean", ColumnType.DOUBLE));
    private static final List<String> SUM_NAMES = List.of("n", "total", "mean");
    private static final List<String> SUM_TYPES = List.of("BIGINT", "DECIMAL(38,2)", "DOUBLE");

    @Test
    void numbersCompareByValueExactlyOrWithinTheFloatingTolerance() {
        ResultComparison.LocusRows l = locus(SUMS, row(5L, new BigDecimal("12.30"), 0.1 + 0.2));
        assertThatCode(() -> ResultComparison.assertSameResult("q", l,
                duck(SUM_NAMES, SUM_TYPES, row(BigInteger.valueOf(5), new BigDecimal("12.3000"), 0.3)), true))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> ResultComparison.assertSameResult("q", l,
                duck(SUM_NAMES, SUM_TYPES, row(5L, new BigDecimal("12.31"), 0.3)), true))
                .hasMessageContaining("column 2 (total)");
        assertThatThrownBy(() -> ResultComparison.assertSameResult("q", l,
                duck(SUM_NAMES, SUM_TYPES, row(5L, new BigDecimal("12.30"), 0.3 + 1e-6)), true))
                .hasMessageContaining("column 3 (mean)");
        assertThat(ResultComparison.same(1e-12, 0.0, true, false)).isTrue();
        assertThat(ResultComparison.same(-0.0, 0.0, true, false)).isTrue();
        assertThat(ResultComparison.same(1_000_000_000_000.0, 1_000_000_000_000.5, true, false)).isTrue();
        assertThat(ResultComparison.same(1.0, 1.0 + 1e-8, true, false)).isFalse();
        assertThat(ResultComparison.same(7, 7L, false, false)).isTrue();
        assertThat(ResultComparison.same(7, new BigDecimal("7.01"), false, false)).isFalse();
    }

    @Test
    void nullEqualsOnlyNullAndTypesMustMatchTheirColumns() {
        List<ResultColumn> one = List.of(new ResultColumn("v", ColumnType.INTEGER));
        assertThatThrownBy(() -> ResultComparison.assertSameResult("q", locus(one, row((Object) null)),
                duck(List.of("v"), List.of("INTEGER"), row(0)), true)).hasMessageContaining("rows differ");
        assertThatThrownBy(() -> ResultComparison.assertSameResult("q", locus(one, row(3L)),
                duck(List.of("v"), List.of("INTEGER"), row(3)), true))
                .hasMessageContaining("does not match its column type INTEGER");
        List<ResultColumn> dec = List.of(new ResultColumn("v", ColumnType.decimal(15, 2)));
        assertThatThrownBy(() -> ResultComparison.assertSameResult("q", locus(dec, row(new BigDecimal("1.5"))),
                duck(List.of("v"), List.of("DECIMAL(15,2)"), row(new BigDecimal("1.50"))), true))
                .hasMessageContaining("does not match its column type DECIMAL(15,2)");
    }

    @Test
    void datesFromDuckDbTimestampsAtMidnightAndCharPaddingAreNormalized() {
        assertThat(DuckOracle.normalize(Timestamp.valueOf("1998-09-02 00:00:00"))).isEqualTo(LocalDate.of(1998, 9, 2));
        assertThat(DuckOracle.normalize(Timestamp.valueOf("1998-09-02 10:00:00")))
                .isEqualTo(LocalDateTime.of(1998, 9, 2, 10, 0));
        assertThat(DuckOracle.normalize(java.sql.Date.valueOf("1998-09-02"))).isEqualTo(LocalDate.of(1998, 9, 2));
        List<ResultColumn> chars = List.of(new ResultColumn("c", ColumnType.character(8)));
        assertThatCode(() -> ResultComparison.assertSameResult("q", locus(chars, row("neg     ")),
                duck(List.of("c"), List.of("VARCHAR"), row("neg")), true)).doesNotThrowAnyException();
        List<ResultColumn> varchar = List.of(new ResultColumn("c", ColumnType.VARCHAR));
        assertThatThrownBy(() -> ResultComparison.assertSameResult("q", locus(varchar, row("neg ")),
                duck(List.of("c"), List.of("VARCHAR"), row("neg")), true)).hasMessageContaining("rows differ");
    }

    @Test
    void unorderedResultsAreSortedOrderedOnesAreNot() {
        List<ResultColumn> cols = List.of(new ResultColumn("k", ColumnType.VARCHAR),
                new ResultColumn("v", ColumnType.DOUBLE));
        ResultComparison.LocusRows l = locus(cols, row("b", 2.0), row(null, 1.0), row("a", 3.0));
        DuckOracle.DuckRows d = duck(List.of("k", "v"), List.of("VARCHAR", "DOUBLE"), row("a", 3.0),
                row("b", 2.0), row(null, 1.0));
        assertThatCode(() -> ResultComparison.assertSameResult("q", l, d, false)).doesNotThrowAnyException();
        assertThatThrownBy(() -> ResultComparison.assertSameResult("q", l, d, true))
                .hasMessageContaining("rows differ at row 1 (in ORDER BY order)");
    }

    @Test
    void theFailureShowsTheSqlTheRowCountsAndTheFirstDifferingRows() {
        List<ResultColumn> cols = List.of(new ResultColumn("k", ColumnType.BIGINT));
        assertThatThrownBy(() -> ResultComparison.assertSameResult("SELECT k FROM t", locus(cols, row(1L), row(2L)),
                duck(List.of("k"), List.of("BIGINT"), row(1L), row(2L), row(3L)), false))
                .hasMessageContaining("SQL: SELECT k FROM t")
                .hasMessageContaining("row count differs: LocusDB 2, DuckDB 3")
                .hasMessageContaining("LocusDB row: <none>")
                .hasMessageContaining("DuckDB row:  [3]");
        assertThatThrownBy(() -> ResultComparison.assertSameResult("q", locus(cols, row(1L)),
                duck(List.of("other"), List.of("BIGINT"), row(1L)), false))
                .hasMessageContaining("named 'k' by LocusDB but 'other' by DuckDB");
        assertThatThrownBy(() -> ResultComparison.assertSameResult("q", locus(cols, row(1L)),
                duck(List.of("k", "j"), List.of("BIGINT", "BIGINT"), row(1L, 2L)), false))
                .hasMessageContaining("column count differs");
    }
}
