package io.locusdb.bench.seed;

import io.locusdb.bench.sim.Scenario;
import io.locusdb.bench.sim.ScenarioParser;
import io.locusdb.bench.sim.TaskCosts;
import io.locusdb.core.LocusDB;
import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
import io.locusdb.core.exec.ExecutorStats;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.query.QueryLog;
import io.locusdb.core.exec.stealing.StealingPolicies;
import io.locusdb.core.query.scan.PartScanJob;
import io.locusdb.core.result.QueryResult;
import io.locusdb.natives.topology.Topologies;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Fits the simulator's task costs to LocusDB's own kernels on this machine: one benchmark table, one client at a
 * time, prepared statements. The IV-scan is fitted to what the engine itself does and sees while query (a) runs at
 * 0.01 % (a range, not a point: a point query takes another path):
 * <ul>
 *   <li>how many scan tasks a query runs (the engine splits a part by its concurrency hint, so one client's query
 *       may well be one task): the simulator splits a part into as many;</li>
 *   <li>the bytes the engine accounts a scanned row (whole 64-bit words of codes), against the packed
 *       {@code bits/8} the simulator charges: their ratio is the scan's byte factor, so that the simulated stealing
 *       policy sees the scan's memory throughput as the engine's does;</li>
 *   <li>a scan's time per row: the executor's task time per query (nearly all of it scanning at this selectivity)
 *       over the rows;</li>
 *   <li>what a query costs besides, on the client's thread: binding and physical planning (the query log's
 *       median).</li>
 * </ul>
 * Work, not wall time: under the benchmark's many clients what bounds throughput is the work, and a lone query's
 * idle moments (waiting for its slowest task while the other worker idles) are filled by other queries. An earlier
 * fit charged a lone query's wall time beyond its scan (4-14 ms here) as CPU of any node, which drowned the
 * placement's effect.
 * Materialization and aggregation come from median query times, per row and per worker (every worker takes a share
 * of a query's tasks): query (a) at 10 % less (a) at 0.01 %, and (b) at 10 % less the same. What the memory system
 * would take at one thread's bandwidth is subtracted from each class, since the simulator adds it back. Classes this
 * does not time (merge, probe) keep their defaults, scaled by the measured materialization against its default.
 */
public final class EngineCostFit {
    private static final double LOW_SELECTIVITY = 1e-4;
    /** What was measured, and the costs fitted from it. */
    public record Fit(double scanNanosPerRow, double scanTasksPerQuery, double scanBytesPerRow,
                      double materializeNanosPerMatch, double aggregateNanosPerMatch, double queryOverheadMicros,
                      TaskCosts costs) {
        public String describe() {
            return String.format(Locale.ROOT, "LocusDB here: IV-scan %.3f ns/row in %.1f task(s) a query, %.2f bytes"
                            + " a row accounted (%.2f× the packed codes), materialization %.1f ns/match,"
                            + " aggregation %.1f ns/match (per worker), %.0f µs a query besides (binding and physical"
                            + " planning)", scanNanosPerRow,
                    scanTasksPerQuery, scanBytesPerRow, costs.ivScanByteFactor(), materializeNanosPerMatch,
                    aggregateNanosPerMatch, queryOverheadMicros);
        }
    }

    private EngineCostFit() {
    }

    /**
     * @param rows            rows of the table timed
     * @param threadBandwidth one thread's streaming bandwidth here (bytes per second)
     * @param seconds         how long each query type is timed
     */
    public static Fit measure(long rows, double threadBandwidth, double seconds) {
        Scenario table = ScenarioParser.parse("""
                name fit
                machine here
                table TBL1 node 0
                clients 1 a TBL1
                """, "fit", 1);
        int workers = Runtime.getRuntime().availableProcessors();
        try (EmbeddedTarget target = new EmbeddedTarget(Topologies.fake(1), StealingPolicies.always());
             Session session = target.database().connect()) {
            LocusDB db = target.database();
            target.load(table, rows, 11);
            NumaExecutor executor = db.executor();
            TaskClass scanClass = executor.taskClasses().of(PartScanJob.TASK_CLASS);
            timed(session, 'a', LOW_SELECTIVITY, seconds / 2);
            ExecutorStats before = executor.freshStats();
            long busyBefore = executor.busyNanos();
            long logged = db.queryLog().entries().size();
            Timed low = timed(session, 'a', LOW_SELECTIVITY, seconds);
            long busy = executor.busyNanos() - busyBefore;
            ExecutorStats after = executor.freshStats();
            List<QueryLog.Entry> entries = db.queryLog().entries();
            double physicalNanos = median(entries.subList((int) Math.min(logged, entries.size()), entries.size())
                    .stream().map(e -> (double) e.physicalNanos()).toList());
            // Read right after the low-selectivity runs: later query types scan other columns.
            double scanThroughput = scanClass.averageThroughput();
            double tasksPerQuery = Math.max(1, (tasksRun(after, scanClass) - tasksRun(before, scanClass))
                    / (double) low.executions());
            double bytesPerRow = (bytes(after) - bytes(before)) / ((double) low.executions() * rows);
            double packedBytesPerRow = (SeedTables.FIRST_BITCASE + SeedTables.COLUMNS / 2.0 - 0.5) / 8;
            double byteFactor = bytesPerRow > 0 ? bytesPerRow / packedBytesPerRow : 1;
            long taskRows = Math.max(1, Math.round(rows / tasksPerQuery));
            double scanPerRow = busy > 0 ? (double) busy / low.executions() / rows
                    : scanThroughput > 0 && bytesPerRow > 0 ? bytesPerRow / scanThroughput * 1e9
                    : low.medianNanos() * Math.min(workers, tasksPerQuery) / rows;
            double scanCpu = Math.max(0.01, scanPerRow - bytesPerRow / threadBandwidth * 1e9);
            double overheadMicros = Double.isNaN(physicalNanos) ? 0 : physicalNanos / 1000;

            double lowPerRow = low.medianNanos() * workers / rows;
            double materialize = timed(session, 'a', 0.1, seconds).medianNanos() * workers / rows;
            double aggregate = timed(session, 'b', 0.1, seconds).medianNanos() * workers / rows;
            TaskCosts d = TaskCosts.defaults();
            double matchMaterialize = Math.max(0.1, (materialize - lowPerRow) / (0.1 - LOW_SELECTIVITY)
                    - d.materializeBytesPerRow() / threadBandwidth * 1e9);
            double matchAggregate = Math.max(0.1, (aggregate - lowPerRow) / (0.1 - LOW_SELECTIVITY)
                    - d.aggregateBytesPerRow() / threadBandwidth * 1e9);
            double scale = matchMaterialize / d.materializeNanosPerRow();
            TaskCosts fitted = new TaskCosts(scanCpu, byteFactor, matchMaterialize, d.materializeBytesPerRow(),
                    matchAggregate, d.aggregateBytesPerRow(), d.mergeNanosPerGroup() * scale, d.mergeBytesPerGroup(),
                    d.probeNanosPerRow() * scale, d.probeBytesPerRow(), taskRows, overheadMicros);
            return new Fit(scanPerRow, tasksPerQuery, bytesPerRow, (materialize - lowPerRow) / (0.1 - LOW_SELECTIVITY),
                    (aggregate - lowPerRow) / (0.1 - LOW_SELECTIVITY), overheadMicros, fitted);
        }
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    private static long tasksRun(ExecutorStats stats, TaskClass taskClass) {
        long sum = 0;
        for (int node = 0; node < stats.tasksRunByNodeAndClass().length; node++) {
            sum += stats.tasksRun(node, taskClass.id());
        }
        return sum;
    }

    private static long bytes(ExecutorStats stats) {
        long sum = 0;
        for (long b : stats.bytesByNode()) {
            sum += b;
        }
        return sum;
    }

    /** A query type's median wall time, and how many times it ran in all (warm-up included). */
    private record Timed(double medianNanos, long executions) {
    }

    private static Timed timed(Session session, char type, double selectivity, double seconds) {
        SplittableRandom random = new SplittableRandom(5);
        List<Double> times = new ArrayList<>();
        Map<Integer, PreparedQuery> prepared = new HashMap<>();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        int warmUp = 20;
        long executions = 0;
        while (System.nanoTime() < end || times.size() < 5) {
            int column = SeedQuery.column(type, random);
            PreparedQuery q = prepared.computeIfAbsent(column,
                    c -> session.prepare(SeedQuery.sql(type, "TBL1", "TBL1", c)));
            long[] range = SeedQuery.range(column, selectivity, random);
            q.set(1, range[0]);
            q.set(2, range[1]);
            long t0 = System.nanoTime();
            try (QueryResult r = q.execute()) {
                while (r.nextBatch() != null) {
                    // read to the end, as the benchmark's clients do
                }
            }
            double nanos = System.nanoTime() - t0;
            executions++;
            if (warmUp-- <= 0) {
                times.add(nanos);
            }
        }
        Collections.sort(times);
        return new Timed(times.get(times.size() / 2), executions);
    }
}
