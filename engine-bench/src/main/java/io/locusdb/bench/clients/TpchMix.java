package io.locusdb.bench.clients;

import io.locusdb.bench.clients.MixQuery.WrongAnswerException;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The supported single-table queries as a client mix: TPC-H Q1 and Q6 with drawn parameters, and the adaptive
 * placement paper's two scan shapes (a range selection that returns rows, and a range aggregation by group).
 */
public final class TpchMix {
    private TpchMix() {
    }

    public static List<MixQuery> queries(LineitemReference reference) {
        return List.of(new Q6(reference), new Q1(reference), new RangeSelect(reference),
                new RangeGroupSum(reference));
    }

    /** TPC-H Q6 for a drawn year, discount center and quantity limit. */
    static final class Q6 implements MixQuery {
        private final LineitemReference ref;

        Q6(LineitemReference ref) {
            this.ref = ref;
        }

        public String name() {
            return "q6";
        }

        public String sql() {
            return "SELECT sum(l_extendedprice * l_discount) AS revenue FROM lineitem WHERE l_shipdate >= ?"
                    + " AND l_shipdate < ? AND l_discount BETWEEN ? AND ? AND l_quantity < ?";
        }

        public long runAndCheck(PreparedStatement ps, SplittableRandom random) throws SQLException {
            int y = random.nextInt(LineitemReference.YEARS);
            int d = random.nextInt(LineitemReference.DISCOUNTS);
            int q = random.nextInt(LineitemReference.QUANTITY_LIMITS.length);
            int year = LineitemReference.FIRST_YEAR + y;
            int center = LineitemReference.FIRST_DISCOUNT + d;
            ps.setDate(1, Date.valueOf(LocalDate.of(year, 1, 1)));
            ps.setDate(2, Date.valueOf(LocalDate.of(year + 1, 1, 1)));
            ps.setBigDecimal(3, BigDecimal.valueOf(center - 1, 2));
            ps.setBigDecimal(4, BigDecimal.valueOf(center + 1, 2));
            ps.setInt(5, LineitemReference.QUANTITY_LIMITS[q]);
            BigDecimal expected = ref.q6Rows[y][d][q] == 0 ? null : BigDecimal.valueOf(ref.q6Revenue[y][d][q], 4);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new WrongAnswerException("q6 " + year + "/" + center + "%: no row");
                }
                BigDecimal got = rs.getBigDecimal(1);
                if (expected == null ? got != null : got == null || got.compareTo(expected) != 0) {
                    throw new WrongAnswerException("q6 year " + year + " discount " + center + "% quantity < "
                            + LineitemReference.QUANTITY_LIMITS[q] + ": expected " + expected + ", got " + got);
                }
                if (rs.next()) {
                    throw new WrongAnswerException("q6: more than one row");
                }
            }
            return 1;
        }
    }

    /** TPC-H Q1 with a drawn cutoff (1998-12-01 minus 60, 90 or 120 days). */
    static final class Q1 implements MixQuery {
        private final LineitemReference ref;

        Q1(LineitemReference ref) {
            this.ref = ref;
        }

        public String name() {
            return "q1";
        }

        public String sql() {
            return "SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty,"
                    + " sum(l_extendedprice) AS sum_base_price,"
                    + " sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,"
                    + " sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,"
                    + " avg(l_quantity) AS avg_qty, avg(l_extendedprice) AS avg_price, avg(l_discount) AS avg_disc,"
                    + " count(*) AS count_order FROM lineitem WHERE l_shipdate <= ?"
                    + " GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus";
        }

        public long runAndCheck(PreparedStatement ps, SplittableRandom random) throws SQLException {
            int d = random.nextInt(LineitemReference.Q1_DELTAS.length);
            ps.setDate(1, Date.valueOf(LineitemReference.Q1_BASE.minusDays(LineitemReference.Q1_DELTAS[d])));
            long rows = 0;
            int expectedGroups = 0;
            for (int f = 0; f < 3; f++) {
                for (int s = 0; s < 2; s++) {
                    if (ref.q1Count[d][f][s] > 0) {
                        expectedGroups++;
                    }
                }
            }
            try (ResultSet rs = ps.executeQuery()) {
                String previous = "";
                while (rs.next()) {
                    rows++;
                    String flag = rs.getString(1);
                    String status = rs.getString(2);
                    int f = LineitemReference.FLAGS.indexOf(flag);
                    int s = LineitemReference.STATUSES.indexOf(status);
                    if (f < 0 || s < 0 || flag.length() != 1 || status.length() != 1) {
                        throw new WrongAnswerException("q1: unexpected group " + flag + "/" + status);
                    }
                    if ((flag + status).compareTo(previous) <= 0) {
                        throw new WrongAnswerException("q1: groups not in ORDER BY order at " + flag + status);
                    }
                    previous = flag + status;
                    long count = ref.q1Count[d][f][s];
                    expect("sum_qty", flag, status, rs.getBigDecimal(3), BigDecimal.valueOf(ref.q1Quantity[d][f][s]));
                    expect("sum_base_price", flag, status, rs.getBigDecimal(4),
                            BigDecimal.valueOf(ref.q1BaseCents[d][f][s], 2));
                    expect("sum_disc_price", flag, status, rs.getBigDecimal(5),
                            BigDecimal.valueOf(ref.q1DiscPrice[d][f][s], 4));
                    expect("sum_charge", flag, status, rs.getBigDecimal(6),
                            BigDecimal.valueOf(ref.q1Charge[d][f][s], 6));
                    close("avg_qty", flag, status, rs.getDouble(7), (double) ref.q1Quantity[d][f][s] / count);
                    close("avg_price", flag, status, rs.getDouble(8), ref.q1BaseCents[d][f][s] / 100.0 / count);
                    close("avg_disc", flag, status, rs.getDouble(9), ref.q1DiscountPercent[d][f][s] / 100.0 / count);
                    if (rs.getLong(10) != count) {
                        throw new WrongAnswerException("q1 " + flag + status + " count_order: expected " + count
                                + ", got " + rs.getLong(10));
                    }
                }
            }
            if (rows != expectedGroups) {
                throw new WrongAnswerException("q1: expected " + expectedGroups + " groups, got " + rows);
            }
            return rows;
        }

        private static void expect(String what, String flag, String status, BigDecimal got, BigDecimal expected) {
            if (got == null || got.compareTo(expected) != 0) {
                throw new WrongAnswerException("q1 " + flag + status + " " + what + ": expected " + expected
                        + ", got " + got);
            }
        }

        private static void close(String what, String flag, String status, double got, double expected) {
            if (Math.abs(got - expected) > 1e-6 * Math.max(1, Math.abs(expected))) {
                throw new WrongAnswerException("q1 " + flag + status + " " + what + ": expected " + expected
                        + ", got " + got);
            }
        }
    }

    /** {@code SELECT COLx FROM TBLy WHERE COLx BETWEEN ? AND ?}: every qualifying row comes back. */
    static final class RangeSelect implements MixQuery {
        private final LineitemReference ref;

        RangeSelect(LineitemReference ref) {
            this.ref = ref;
        }

        public String name() {
            return "range-select";
        }

        public String sql() {
            return "SELECT l_quantity FROM lineitem WHERE l_quantity BETWEEN ? AND ?";
        }

        public long runAndCheck(PreparedStatement ps, SplittableRandom random) throws SQLException {
            int low = 1 + random.nextInt(49);
            ps.setInt(1, low);
            ps.setInt(2, low + 1);
            long expectedRows = ref.quantityRows[low] + ref.quantityRows[low + 1];
            long expectedSum = low * ref.quantityRows[low] + (low + 1L) * ref.quantityRows[low + 1];
            long rows = 0;
            long sum = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long v = rs.getLong(1);
                    if (v != low && v != low + 1) {
                        throw new WrongAnswerException("range-select [" + low + "," + (low + 1) + "]: row value " + v);
                    }
                    rows++;
                    sum += v;
                }
            }
            if (rows != expectedRows || sum != expectedSum) {
                throw new WrongAnswerException("range-select [" + low + "," + (low + 1) + "]: expected "
                        + expectedRows + " rows summing to " + expectedSum + ", got " + rows + " summing to " + sum);
            }
            return rows;
        }
    }

    /** {@code SELECT COL1, SUM(CAST(COLx AS DOUBLE)) FROM TBLy WHERE COLy BETWEEN ? AND ? GROUP BY COL1}. */
    static final class RangeGroupSum implements MixQuery {
        private final LineitemReference ref;

        RangeGroupSum(LineitemReference ref) {
            this.ref = ref;
        }

        public String name() {
            return "range-group";
        }

        public String sql() {
            return "SELECT l_returnflag, SUM(CAST(l_extendedprice AS DOUBLE)) FROM lineitem"
                    + " WHERE l_shipdate BETWEEN ? AND ? GROUP BY l_returnflag";
        }

        public long runAndCheck(PreparedStatement ps, SplittableRandom random) throws SQLException {
            int m = random.nextInt(LineitemReference.MONTHS);
            LocalDate first = ref.monthStart(m);
            ps.setDate(1, Date.valueOf(first));
            ps.setDate(2, Date.valueOf(first.plusMonths(1).minusDays(1)));
            Map<String, Double> got = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (got.put(rs.getString(1), rs.getDouble(2)) != null) {
                        throw new WrongAnswerException("range-group " + first + ": group " + rs.getString(1)
                                + " twice");
                    }
                }
            }
            int expectedGroups = 0;
            for (int f = 0; f < 3; f++) {
                if (ref.monthRows[m][f] == 0) {
                    continue;
                }
                expectedGroups++;
                String flag = String.valueOf(LineitemReference.FLAGS.charAt(f));
                double expected = ref.monthCents[m][f] / 100.0;
                Double value = got.get(flag);
                if (value == null || Math.abs(value - expected) > 1e-9 * Math.max(1, Math.abs(expected))) {
                    throw new WrongAnswerException("range-group " + first + " flag " + flag + ": expected "
                            + expected + ", got " + value);
                }
            }
            if (got.size() != expectedGroups) {
                throw new WrongAnswerException("range-group " + first + ": expected " + expectedGroups
                        + " groups, got " + got.keySet());
            }
            return got.size();
        }
    }
}
