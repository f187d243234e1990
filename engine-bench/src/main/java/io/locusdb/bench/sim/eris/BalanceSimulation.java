package io.locusdb.bench.sim.eris;

import io.locusdb.core.eris.BalancingPolicy;
import io.locusdb.core.eris.RangeTable;
import java.util.ArrayList;
import java.util.List;

/**
 * Figure 13's experiment on a simulated machine: one AEU per core over {@code keys} keys, lookups spread evenly over
 * a hot window of the key range that changes (the whole range for 10 s, then the middle half, then four shifts left
 * by 8M keys every 20 s), and each second the balancer runs the same {@link BalancingPolicy} code as the engine on
 * the period's access histograms. Throughput: in a closed loop every AEU generates lookups for every other, so the
 * AEU with the largest share of them sets the pace ({@code capacity / largest share}, at most all AEUs' capacity);
 * while an AEU moves entries (copy across nodes at one core's remote streaming rate, link within a node at the cost
 * of splicing tree nodes) it serves nothing, and the commands waiting for it stall the others.
 */
final class BalanceSimulation {
    static final double STEP_SECONDS = 0.1;
    static final double PERIOD_SECONDS = 1.0;
    static final double THRESHOLD = 0.1;
    /** Index bytes per key (the paper: 1 billion keys take about 25 GB). */
    static final double BYTES_PER_KEY = 25;
    /** Linking a range within a node splices tree nodes: per key moved, this many bytes' worth of streaming. */
    static final double LINK_BYTES_PER_KEY = 1;
    private static final int BINS = 16;

    record Result(String policy, double[] seconds, double[] throughput, int balancings) {
    }

    private BalanceSimulation() {
    }

    /** The hot window {lo, hi} (inclusive) at {@code t} seconds. */
    static long[] window(double t, long keys) {
        if (t < 10) {
            return new long[] {0, keys - 1};
        }
        int shifts = (int) Math.min(4, Math.max(0, Math.floor((t - 10) / 20)));
        long shift = shifts * (keys / 64);
        return new long[] {keys / 4 - shift, 3 * keys / 4 - 1 - shift};
    }

    static double duration() {
        return 110;
    }

    /** Runs the experiment; {@code policy} null is the run without a balancer. */
    static Result run(ErisMachine m, long keys, BalancingPolicy policy) {
        int aeus = m.cores();
        RangeTable table = RangeTable.even(aeus, keys);
        double perLookup = IndexModel.CPU_NANOS + IndexModel.ROUTING_NANOS
                + IndexModel.misses((double) keys / m.nodes(), m.llcBytes())[0] * IndexModel.HIT_NANOS
                + IndexModel.misses((double) keys / m.nodes(), m.llcBytes())[1] * m.latencyNanos()[0]
                / IndexModel.ERIS_OVERLAP;
        double capacity = 1e9 / perLookup;
        int steps = (int) Math.round(duration() / STEP_SECONDS);
        double[] seconds = new double[steps];
        double[] throughput = new double[steps];
        double[] busyUntil = new double[aeus];
        long[][] histograms = new long[aeus][BINS];
        int balancings = 0;
        for (int s = 0; s < steps; s++) {
            double t = s * STEP_SECONDS;
            long[] hot = window(t, keys);
            double[] share = shares(table, hot);
            double largest = 0;
            for (double x : share) {
                largest = Math.max(largest, x);
            }
            double rate = Math.min(aeus * capacity, capacity / largest);
            // Commands for a busy AEU wait in its buffers; the others go on.
            double blocked = 0;
            for (int i = 0; i < aeus; i++) {
                blocked += share[i] * Math.min(STEP_SECONDS, Math.max(0, busyUntil[i] - t)) / STEP_SECONDS;
            }
            double served = rate * (1 - Math.min(1, blocked));
            seconds[s] = t;
            throughput[s] = served;
            accumulate(table, hot, served * STEP_SECONDS, histograms, keys);
            if (policy != null && s > 0 && (s % (int) Math.round(PERIOD_SECONDS / STEP_SECONDS)) == 0) {
                if (BalancingPolicy.imbalance(histograms) > THRESHOLD) {
                    long[] lows = policy.targetLows(table, histograms, 0, keys - 1);
                    if (lows != null) {
                        RangeTable next = new RangeTable(lows, table.owners());
                        transfer(m, table, next, t, busyUntil);
                        table = next;
                        balancings++;
                    }
                }
                histograms = new long[aeus][BINS];
            }
        }
        return new Result(policy == null ? "none" : policy.name(), seconds, throughput, balancings);
    }

    /** Each AEU's share of the lookups on {@code hot}. */
    private static double[] shares(RangeTable table, long[] hot) {
        double width = hot[1] - hot[0] + 1.0;
        double[] share = new double[table.ranges()];
        for (int i = 0; i < share.length; i++) {
            double a = Math.max(table.low(i), hot[0]);
            double b = Math.min(table.high(i), hot[1]);
            share[i] = b >= a ? (b - a + 1) / width : 0;
        }
        return share;
    }

    /** Adds the lookups on {@code hot} to the histograms, binned as the policy reads them (its range in the domain). */
    private static void accumulate(RangeTable table, long[] hot, double lookups, long[][] histograms, long keys) {
        double width = hot[1] - hot[0] + 1.0;
        for (int i = 0; i < table.ranges(); i++) {
            double from = Math.max(table.low(i), 0);
            double to = Math.min(table.high(i), keys - 1) + 1.0;
            for (int b = 0; b < BINS; b++) {
                double x0 = from + (to - from) * b / BINS;
                double x1 = from + (to - from) * (b + 1) / BINS;
                double overlap = Math.max(0, Math.min(x1, hot[1] + 1.0) - Math.max(x0, hot[0]));
                histograms[i][b] += Math.round(lookups * overlap / width);
            }
        }
    }

    /** Marks the AEUs busy while the entries that change owner move: copied across nodes, linked within one. */
    private static void transfer(ErisMachine m, RangeTable before, RangeTable after, double t, double[] busyUntil) {
        int aeus = before.ranges();
        int perNode = m.coresPerNode();
        double[] work = new double[aeus];
        for (int i = 0; i < aeus; i++) {
            for (int j = 0; j < aeus; j++) {
                if (i == j) {
                    continue;
                }
                double a = Math.max(before.low(i), after.low(j));
                double b = Math.min(before.high(i), after.high(j));
                if (a > b) {
                    continue;
                }
                double moved = Math.min(b, 1e18) - Math.max(a, -1e18) + 1;
                int from = i / perNode;
                int to = j / perNode;
                double seconds = from == to ? moved * LINK_BYTES_PER_KEY / m.coreBandwidth(from, from)
                        : moved * BYTES_PER_KEY / m.coreBandwidth(to, from);
                work[i] += seconds;
                work[j] += seconds;
            }
        }
        for (int i = 0; i < aeus; i++) {
            if (work[i] > 0) {
                busyUntil[i] = Math.max(busyUntil[i], t) + work[i];
            }
        }
    }

    private static final double[] CHANGES = {10, 30, 50, 70, 90};

    /** Per change of the workload, the most any run reached in the 20 s after it: what "recovered" is measured by. */
    static double[] references(List<Result> runs) {
        double[] best = new double[CHANGES.length];
        for (Result r : runs) {
            for (int c = 0; c < CHANGES.length; c++) {
                int from = (int) Math.round(CHANGES[c] / STEP_SECONDS);
                int to = Math.min(r.throughput().length, from + (int) Math.round(20 / STEP_SECONDS));
                for (int s = from; s < to; s++) {
                    best[c] = Math.max(best[c], r.throughput()[s]);
                }
            }
        }
        return best;
    }

    /**
     * Per change of the workload (at 10, 30, 50, 70, 90 s): {depth of the drop below the reference, seconds until
     * throughput is at 95 % of the reference and stays above 90 % (20 when never)}.
     */
    static List<double[]> drops(Result r, double[] reference) {
        List<double[]> out = new ArrayList<>();
        for (int c = 0; c < CHANGES.length; c++) {
            int from = (int) Math.round(CHANGES[c] / STEP_SECONDS);
            int to = Math.min(r.throughput().length, from + (int) Math.round(20 / STEP_SECONDS));
            double worst = Double.MAX_VALUE;
            for (int s = from; s < to; s++) {
                worst = Math.min(worst, r.throughput()[s]);
            }
            double recovered = 20;
            for (int s = from; s < to; s++) {
                boolean stays = r.throughput()[s] >= 0.95 * reference[c];
                for (int u = s; u < to && stays; u++) {
                    stays = r.throughput()[u] >= 0.9 * reference[c];
                }
                if (stays) {
                    recovered = (s - from) * STEP_SECONDS;
                    break;
                }
            }
            out.add(new double[] {reference[c] > 0 ? 1 - worst / reference[c] : 0, recovered});
        }
        return out;
    }
}
