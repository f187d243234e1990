package io.locusdb.server.oracle;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;
import java.util.function.Supplier;

/**
 * The table the expression generator's queries read, as SQL both engines execute: every type the generator
 * knows, NULLs in every column but the key, decimals of two precisions and scales, doubles that are exact binary
 * fractions (so both engines hold the same double), and rows from a seeded generator.
 */
final class ExpressionTable {
    static final String NAME = "e";
    static final int ROWS = 300;
    static final double I_BOUND = 1000;
    static final double B_BOUND = 1e9;
    static final double D2_BOUND = 1e5;
    static final double D4_BOUND = 1e3;
    static final double X_BOUND = 1e4;
    static final LocalDate FIRST_DATE = LocalDate.of(1992, 1, 1);
    static final int DATE_SPAN_DAYS = 2900;
    static final List<String> STRINGS = List.of("", "a", "ab", "abc", "b", "ba", "Alpha", "alpha", "zeta", "x y");

    private static final String COLUMNS = "id BIGINT NOT NULL, i INTEGER, b BIGINT, d2 DECIMAL(12,2),"
            + " d4 DECIMAL(9,4), x DOUBLE, s VARCHAR, dt DATE, f BOOLEAN";

    private ExpressionTable() {
    }

    /** LocusDB's DDL: two hash parts, so every query runs on both parts (and both fake nodes). */
    static String locusDdl() {
        return "CREATE TABLE " + NAME + " (" + COLUMNS + ") PARTITION BY HASH(id) PARTITIONS 2";
    }

    static String duckDdl() {
        return "CREATE TABLE " + NAME + " (" + COLUMNS + ")";
    }

    /** INSERT statements (100 rows each) holding the same rows for a seed. */
    static List<String> inserts(long seed) {
        Random r = new Random(seed);
        List<String> out = new ArrayList<>();
        StringJoiner values = null;
        for (int id = 1; id <= ROWS; id++) {
            if (values == null) {
                values = new StringJoiner(", ", "INSERT INTO " + NAME + " VALUES ", "");
            }
            StringJoiner row = new StringJoiner(", ", "(", ")");
            row.add(String.valueOf(id));
            row.add(nullOr(r, () -> String.valueOf(r.nextInt(2 * (int) I_BOUND + 1) - (int) I_BOUND)));
            row.add(nullOr(r, () -> String.valueOf(r.nextLong(-(long) B_BOUND, (long) B_BOUND))));
            row.add(nullOr(r, () -> decimal(r, 2, (long) (D2_BOUND * 100))));
            row.add(nullOr(r, () -> decimal(r, 4, (long) (D4_BOUND * 10_000))));
            row.add(nullOr(r, () -> String.valueOf((r.nextInt(2 * (int) X_BOUND * 4 + 1) - X_BOUND * 4) / 4.0)));
            row.add(nullOr(r, () -> "'" + STRINGS.get(r.nextInt(STRINGS.size())) + "'"));
            row.add(nullOr(r, () -> "DATE '" + FIRST_DATE.plusDays(r.nextInt(DATE_SPAN_DAYS)) + "'"));
            row.add(nullOr(r, () -> r.nextBoolean() ? "TRUE" : "FALSE"));
            values.add(row.toString());
            if (id % 100 == 0) {
                out.add(values.toString());
                values = null;
            }
        }
        if (values != null) {
            out.add(values.toString());
        }
        return out;
    }

    private static String decimal(Random r, int scale, long unscaledBound) {
        return BigDecimal.valueOf(r.nextLong(-unscaledBound + 1, unscaledBound), scale).toPlainString();
    }

    private static String nullOr(Random r, Supplier<String> value) {
        return r.nextInt(10) == 0 ? "NULL" : value.get();
    }
}
