package io.locusdb.bench.clients;

import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The right answers of the client mix, computed straight from the TPC-H generator (io.trino.tpch) at the server's
 * scale factor, independently of LocusDB: exact integer sums in the columns' scaled units, for every parameter
 * value the mix may draw. One pass over lineitem, split over generator parts.
 */
public final class LineitemReference {
    static final int FIRST_YEAR = 1993;
    static final int YEARS = 5;
    /** Q6 discount centers in percent: the range is center ± 1. */
    static final int FIRST_DISCOUNT = 2;
    static final int DISCOUNTS = 8;
    static final int[] QUANTITY_LIMITS = {24, 25};
    /** Q1 cutoffs: 1998-12-01 minus these many days. */
    static final int[] Q1_DELTAS = {60, 90, 120};
    static final LocalDate Q1_BASE = LocalDate.of(1998, 12, 1);
    static final LocalDate FIRST_MONTH = LocalDate.of(1992, 1, 1);
    static final int MONTHS = 7 * 12;
    static final String FLAGS = "ANR";
    static final String STATUSES = "FO";

    final double scaleFactor;
    /** [year][discount][quantity limit]: Σ cents × discount percent (scale 4), and matching rows. */
    final long[][][] q6Revenue = new long[YEARS][DISCOUNTS][QUANTITY_LIMITS.length];
    final long[][][] q6Rows = new long[YEARS][DISCOUNTS][QUANTITY_LIMITS.length];
    /** [delta][flag][status]. */
    final long[][][] q1Count = new long[Q1_DELTAS.length][3][2];
    final long[][][] q1Quantity = new long[Q1_DELTAS.length][3][2];
    final long[][][] q1BaseCents = new long[Q1_DELTAS.length][3][2];
    final long[][][] q1DiscPrice = new long[Q1_DELTAS.length][3][2];
    final long[][][] q1Charge = new long[Q1_DELTAS.length][3][2];
    final long[][][] q1DiscountPercent = new long[Q1_DELTAS.length][3][2];
    /** Rows per quantity 0..50. */
    final long[] quantityRows = new long[51];
    /** [month][flag]: Σ extended price cents, and rows. */
    final long[][] monthCents = new long[MONTHS][3];
    final long[][] monthRows = new long[MONTHS][3];

    private final int[] yearStart = new int[YEARS + 1];
    private final int[] monthStart = new int[MONTHS + 1];
    private final int[] q1Cutoff = new int[Q1_DELTAS.length];

    private LineitemReference(double scaleFactor) {
        this.scaleFactor = scaleFactor;
        for (int y = 0; y <= YEARS; y++) {
            yearStart[y] = (int) LocalDate.of(FIRST_YEAR + y, 1, 1).toEpochDay();
        }
        for (int m = 0; m <= MONTHS; m++) {
            monthStart[m] = (int) FIRST_MONTH.plusMonths(m).toEpochDay();
        }
        for (int d = 0; d < Q1_DELTAS.length; d++) {
            q1Cutoff[d] = (int) Q1_BASE.minusDays(Q1_DELTAS[d]).toEpochDay();
        }
    }

    /** Generates lineitem at {@code scaleFactor} on {@code threads} threads and accumulates every answer. */
    public static LineitemReference compute(double scaleFactor, int threads) {
        int parts = Math.max(1, threads) * 4;
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
        try {
            List<Future<LineitemReference>> futures = new ArrayList<>();
            for (int p = 1; p <= parts; p++) {
                int part = p;
                futures.add(pool.submit(() -> {
                    LineitemReference partial = new LineitemReference(scaleFactor);
                    for (LineItem item : new LineItemGenerator(scaleFactor, part, parts)) {
                        partial.add(item);
                    }
                    return partial;
                }));
            }
            LineitemReference total = new LineitemReference(scaleFactor);
            for (Future<LineitemReference> f : futures) {
                total.merge(f.get());
            }
            return total;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while computing reference answers", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("computing reference answers failed", e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private void add(LineItem item) {
        int ship = item.shipDate();
        long cents = item.extendedPriceInCents();
        long discount = item.discountPercent();
        long tax = item.taxPercent();
        long quantity = item.quantity();
        int flag = FLAGS.indexOf(item.returnFlag().charAt(0));
        int status = STATUSES.indexOf(item.status().charAt(0));

        if (ship >= yearStart[0] && ship < yearStart[YEARS]) {
            int y = 0;
            while (ship >= yearStart[y + 1]) {
                y++;
            }
            for (int d = 0; d < DISCOUNTS; d++) {
                long center = FIRST_DISCOUNT + d;
                if (discount < center - 1 || discount > center + 1) {
                    continue;
                }
                for (int q = 0; q < QUANTITY_LIMITS.length; q++) {
                    if (quantity < QUANTITY_LIMITS[q]) {
                        q6Revenue[y][d][q] += cents * discount;
                        q6Rows[y][d][q]++;
                    }
                }
            }
        }
        for (int d = 0; d < Q1_DELTAS.length; d++) {
            if (ship <= q1Cutoff[d]) {
                q1Count[d][flag][status]++;
                q1Quantity[d][flag][status] += quantity;
                q1BaseCents[d][flag][status] += cents;
                q1DiscPrice[d][flag][status] += cents * (100 - discount);
                q1Charge[d][flag][status] += cents * (100 - discount) * (100 + tax);
                q1DiscountPercent[d][flag][status] += discount;
            }
        }
        if (quantity >= 0 && quantity <= 50) {
            quantityRows[(int) quantity]++;
        }
        if (ship >= monthStart[0] && ship < monthStart[MONTHS]) {
            int m = monthIndex(ship);
            monthCents[m][flag] += cents;
            monthRows[m][flag]++;
        }
    }

    private int monthIndex(int epochDay) {
        LocalDate date = LocalDate.ofEpochDay(epochDay);
        return (date.getYear() - FIRST_MONTH.getYear()) * 12 + date.getMonthValue() - 1;
    }

    private void merge(LineitemReference other) {
        addAll(q6Revenue, other.q6Revenue);
        addAll(q6Rows, other.q6Rows);
        addAll(q1Count, other.q1Count);
        addAll(q1Quantity, other.q1Quantity);
        addAll(q1BaseCents, other.q1BaseCents);
        addAll(q1DiscPrice, other.q1DiscPrice);
        addAll(q1Charge, other.q1Charge);
        addAll(q1DiscountPercent, other.q1DiscountPercent);
        add(quantityRows, other.quantityRows);
        for (int m = 0; m < MONTHS; m++) {
            add(monthCents[m], other.monthCents[m]);
            add(monthRows[m], other.monthRows[m]);
        }
    }

    private static void addAll(long[][][] into, long[][][] from) {
        for (int i = 0; i < into.length; i++) {
            for (int j = 0; j < into[i].length; j++) {
                add(into[i][j], from[i][j]);
            }
        }
    }

    private static void add(long[] into, long[] from) {
        for (int i = 0; i < into.length; i++) {
            into[i] += from[i];
        }
    }

    LocalDate monthStart(int month) {
        return FIRST_MONTH.plusMonths(month);
    }
}
