package io.locusdb.bench.seed;

import java.util.SplittableRandom;

/**
 * The benchmark's three query types as prepared statements (adaptive-placement paper §8), and their parameters for
 * a selectivity: a range of {@code selectivity × 2^bits} values at a random place in the column's domain.
 */
public final class SeedQuery {
    private SeedQuery() {
    }

    /**
     * The statement of {@code type} on {@code table} filtering {@code column}: (a) range select, (b) range select
     * with the sum of another column as DOUBLE grouped by COL1, (c) the ID equi-join with {@code joined}.
     */
    public static String sql(char type, String table, String joined, int column) {
        String col = "COL" + column;
        return switch (type) {
            case 'a' -> "SELECT " + col + " FROM " + table + " WHERE " + col + " BETWEEN ? AND ?";
            case 'b' -> "SELECT COL1, SUM(CAST(" + col + " AS DOUBLE)) FROM " + table + " WHERE " + col
                    + " BETWEEN ? AND ? GROUP BY COL1";
            case 'c' -> "SELECT z." + col + " FROM " + table + " y, " + joined + " z WHERE y.ID = z.ID AND y." + col
                    + " BETWEEN ? AND ?";
            default -> throw new IllegalArgumentException("query type '" + type + "' is not a, b or c");
        };
    }

    /** The column a query of {@code type} filters: any for (a) and (c), COL2..COL8 for (b) (COL1 is its group). */
    public static int column(char type, SplittableRandom random) {
        return type == 'b' ? 2 + random.nextInt(SeedTables.COLUMNS - 1) : 1 + random.nextInt(SeedTables.COLUMNS);
    }

    /** Low and high bound (inclusive) of a range matching {@code selectivity} of the column's uniform values. */
    public static long[] range(int column, double selectivity, SplittableRandom random) {
        long domain = 1L << SeedTables.bits(column);
        long width = Math.max(1, Math.round(domain * selectivity));
        long low = width >= domain ? 0 : random.nextLong(domain - width + 1);
        return new long[] {low, low + width - 1};
    }
}
