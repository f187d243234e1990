package io.locusdb.bench.seed;

import io.locusdb.bench.sim.Scenario;
import io.locusdb.bench.sim.ScenarioParser;
import io.locusdb.bench.sim.TaskCosts;
import io.locusdb.core.LocusDB;
import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
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
 * time, prepared statements. The IV-scan's cost per row comes from the engine's own account of the class (its tasks'
 * bytes per second); materialization and aggregation from median query times, per row and per worker (every worker
 * takes a share of a query's tasks): query (a) at 10 % less (a) at 0.01 % (a range, not a point: a point query takes
 * another path), and (b) at 10 % less the same. What the memory system would take at one thread's bandwidth is
 * subtracted, since the simulator adds it back. Classes this does not time (merge, probe) keep their defaults,
 * scaled by the measured materialization against its default.
 */
public final class EngineCostFit {
    private static final double LOW_SELECTIVITY = 1e-4;
    /** What was measured, and the costs fitted from it. */
    public record Fit(double scanNanosPerRow, double materializeNanosPerMatch, double aggregateNanosPerMatch,
                      double queryOverheadMicros, TaskCosts costs) {
        public String describe() {
            return String.format(Locale.ROOT, "LocusDB here: IV-scan %.3f ns/row, materialization %.1f ns/match,"
                            + " aggregation %.1f ns/match (per worker), %.0f µs a query besides", scanNanosPerRow,
                    materializeNanosPerMatch, aggregateNanosPerMatch, queryOverheadMicros);
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
            double low = perRow(session, 'a', LOW_SELECTIVITY, rows, workers, seconds);
            double materialize = perRow(session, 'a', 0.1, rows, workers, seconds);
            double aggregate = perRow(session, 'b', 0.1, rows, workers, seconds);
            double averageBytes = (SeedTables.FIRST_BITCASE + SeedTables.COLUMNS / 2.0 - 0.5) / 8;
            TaskCosts d = TaskCosts.defaults();
            // The IV-scan from the engine's own account of the class (bytes of packed codes per second of its tasks):
            // a query's wall time also holds planning, dispatch and result handling, which are not scan work.
            double scanThroughput = db.executor().taskClasses().of(PartScanJob.TASK_CLASS).averageThroughput();
            double scanPerRow = scanThroughput > 0 ? averageBytes / scanThroughput * 1e9 : low;
            double scanCpu = Math.max(0.01, scanPerRow - averageBytes / threadBandwidth * 1e9);
            double matchMaterialize = Math.max(0.1, (materialize - low) / (0.1 - LOW_SELECTIVITY)
                    - d.materializeBytesPerRow() / threadBandwidth * 1e9);
            double matchAggregate = Math.max(0.1, (aggregate - low) / (0.1 - LOW_SELECTIVITY)
                    - d.aggregateBytesPerRow() / threadBandwidth * 1e9);
            double scale = matchMaterialize / d.materializeNanosPerRow();
            // What a query costs beyond its scan: the low-selectivity query's time less the scan's share of it.
            double overheadMicros = Math.max(0, (low - scanPerRow) * rows / workers / 1000);
            TaskCosts fitted = new TaskCosts(scanCpu, matchMaterialize, d.materializeBytesPerRow(), matchAggregate,
                    d.aggregateBytesPerRow(), d.mergeNanosPerGroup() * scale, d.mergeBytesPerGroup(),
                    d.probeNanosPerRow() * scale, d.probeBytesPerRow(), Math.max(1, rows / workers),
                    overheadMicros);
            return new Fit(scanPerRow, (materialize - low) / (0.1 - LOW_SELECTIVITY),
                    (aggregate - low) / (0.1 - LOW_SELECTIVITY), overheadMicros, fitted);
        }
    }

    /** Median wall time of one query, times the workers, per row of the table (nanoseconds). */
    private static double perRow(Session session, char type, double selectivity, long rows, int workers,
                                 double seconds) {
        SplittableRandom random = new SplittableRandom(5);
        List<Double> times = new ArrayList<>();
        Map<Integer, PreparedQuery> prepared = new HashMap<>();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        int warmUp = 20;
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
            if (warmUp-- <= 0) {
                times.add(nanos);
            }
        }
        Collections.sort(times);
        return times.get(times.size() / 2) * workers / rows;
    }
}
