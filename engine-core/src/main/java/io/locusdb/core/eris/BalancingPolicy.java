package io.locusdb.core.eris;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * ERIS's configurable load-balancing algorithm (§3.3.1): from the access histogram of the last period (per AEU,
 * bins splitting its range evenly) and the current range bounds, the bounds that balance the load. <b>One-Shot</b>
 * gives every AEU the average load at once; <b>MA-k</b> gives each AEU the moving average of its own load and its
 * k neighbours' on either side, adapting more slowly and moving less (MA-k with k ≥ AEUs − 1 is One-Shot). A pure
 * function of its inputs: tests and the simulator drive it with constructed histograms.
 */
public record BalancingPolicy(String name, int window) {
    /** The whole average at once. */
    public static BalancingPolicy oneShot() {
        return new BalancingPolicy("one-shot", Integer.MAX_VALUE);
    }

    /** Moving average over {@code k} neighbours on each side. */
    public static BalancingPolicy movingAverage(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("MA-k needs k ≥ 1, got " + k);
        }
        return new BalancingPolicy("ma" + k, k);
    }

    /** "one-shot", "ma1", "ma8", ... */
    public static BalancingPolicy parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.equals("one-shot") || t.equals("oneshot")) {
            return oneShot();
        }
        if (t.startsWith("ma")) {
            try {
                return movingAverage(Integer.parseInt(t.substring(2)));
            } catch (NumberFormatException e) {
                // falls through to the error below
            }
        }
        throw new IllegalArgumentException("unknown balancing algorithm '" + text + "' (one-shot, ma1, ma2, ...)");
    }

    /**
     * The new lows (one per AEU, the first Long.MIN_VALUE) for keys in {@code [domainLow, domainHigh]}, or null
     * when there is no load to balance. {@code histograms[i]} splits AEU i's range within the domain evenly.
     */
    public long[] targetLows(RangeTable table, long[][] histograms, long domainLow, long domainHigh) {
        int n = histograms.length;
        List<double[]> pieces = new ArrayList<>();
        double[] load = new double[n];
        double total = 0;
        for (int i = 0; i < n; i++) {
            double from = Math.max(table.low(i), domainLow);
            double to = Math.min(table.high(i), domainHigh) + 1.0;
            int bins = histograms[i].length;
            for (int b = 0; b < bins; b++) {
                double x0 = from + (to - from) * b / bins;
                double x1 = from + (to - from) * (b + 1) / bins;
                pieces.add(new double[] {x0, x1, histograms[i][b]});
                load[i] += histograms[i][b];
            }
            total += load[i];
        }
        if (total <= 0) {
            return null;
        }
        double[] target = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            int a = window >= n ? 0 : Math.max(0, i - window);
            int b = window >= n ? n - 1 : Math.min(n - 1, i + window);
            double s = 0;
            for (int j = a; j <= b; j++) {
                s += window >= n ? total / n : load[j];
            }
            target[i] = s / (b - a + 1);
            sum += target[i];
        }
        long[] lows = new long[n];
        lows[0] = Long.MIN_VALUE;
        double want = 0;
        double seen = 0;
        int piece = 0;
        for (int i = 1; i < n; i++) {
            want += target[i - 1] * total / sum;
            // Walk the pieces until the load up to the cut reaches what AEUs 0..i-1 should carry.
            double cut = domainHigh + 1.0;
            while (piece < pieces.size()) {
                double[] p = pieces.get(piece);
                if (seen + p[2] >= want && p[2] > 0) {
                    cut = p[0] + (p[1] - p[0]) * (want - seen) / p[2];
                    break;
                }
                seen += p[2];
                piece++;
            }
            long low = (long) Math.ceil(cut);
            long floor = i == 1 ? domainLow + 1 : lows[i - 1] + 1;
            lows[i] = Math.max(low, floor);
        }
        // Keep every range non-empty inside the domain.
        for (int i = n - 1; i >= 1; i--) {
            long ceiling = i == n - 1 ? domainHigh : lows[i + 1] - 1;
            lows[i] = Math.min(lows[i], ceiling);
        }
        return lows;
    }

    /** The coefficient of variation of the AEUs' loads (standard deviation over mean; 0 without load). */
    public static double imbalance(long[][] histograms) {
        int n = histograms.length;
        double[] load = new double[n];
        double mean = 0;
        for (int i = 0; i < n; i++) {
            for (long v : histograms[i]) {
                load[i] += v;
            }
            mean += load[i] / n;
        }
        if (mean <= 0) {
            return 0;
        }
        double variance = 0;
        for (double l : load) {
            variance += (l - mean) * (l - mean) / n;
        }
        return Math.sqrt(variance) / mean;
    }
}
