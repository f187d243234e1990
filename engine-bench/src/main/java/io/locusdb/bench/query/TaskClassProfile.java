package io.locusdb.bench.query;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.load.LoadProgress;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.workload.TpchQuery;
import io.locusdb.natives.topology.Topologies;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The memory intensity of LocusDB's task classes on TPC-H, as the engine itself learns it: every TPC-H query the
 * engine runs, on one worker, each from fresh class averages, printing the throughput each class learnt (the bytes
 * its kernels account per second of task time) and the executor's task time per query. The simulator's TPC-H mix
 * (Figure 16) takes the intensity of the work after the scans from here: in LocusDB that work (filters, join
 * probes, aggregation) runs in the tasks of class {@code materialize} that follow each part's scan.
 *
 * <p>Usage: {@code ./locus bench classes [SF] [rounds]}. The account has no hash-table traffic where the host has
 * no hardware counters (the executor adds LLC-miss bytes only where it can read them).
 */
public final class TaskClassProfile {
    private TaskClassProfile() {
    }

    public static void main(String[] args) {
        double sf = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        if (!(sf > 0) || rounds < 1) {
            throw new IllegalArgumentException("usage: ./locus bench classes [SF > 0] [rounds >= 1]");
        }
        LocusConfig config = LocusConfig.of(Topologies.configured("0")).withLoadThreads(2);
        try (LocusDB db = LocusDB.open(config); Session session = db.connect()) {
            new TpchLoader(db.memory(), 2).loadAll(db.catalog(), sf, 1, new InitialPlacement.RoundRobin(),
                    LoadProgress.NONE);
            List<TpchQuery> queries = new ArrayList<>(List.of(TpchQuery.Q1, TpchQuery.Q6));
            queries.addAll(TpchQuery.joins());
            NumaExecutor executor = db.executor();
            System.out.printf(Locale.ROOT, "TPC-H SF%s on one worker, %d rounds per query after 3 of warm-up;"
                    + " MB/s per class as the engine learns it%n", sf, rounds);
            Map<String, List<Double>> byClass = new LinkedHashMap<>();
            for (TpchQuery q : queries) {
                PreparedQuery prepared = session.prepare(q.withDefaults().sql());
                for (int i = 0; i < 3; i++) {
                    drain(prepared);
                }
                executor.taskClasses().all().forEach(TaskClass::resetAverage);
                long busy = executor.busyNanos();
                for (int i = 0; i < rounds; i++) {
                    drain(prepared);
                }
                StringBuilder line = new StringBuilder();
                for (TaskClass c : executor.taskClasses().all()) {
                    if (c.sampleCount() > 0) {
                        line.append(String.format(Locale.ROOT, "  %s %.0f", c.name(), c.averageThroughput() / 1e6));
                        byClass.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(c.averageThroughput() / 1e6);
                    }
                }
                System.out.printf(Locale.ROOT, "%-4s task time %7.1f ms a query;%s%n", q.name(),
                        (executor.busyNanos() - busy) / 1e6 / rounds, line);
            }
            byClass.forEach((name, values) -> System.out.printf(Locale.ROOT,
                    "class %s: median %.0f MB/s over %d queries%n", name, median(values), values.size()));
        }
    }

    private static void drain(PreparedQuery q) {
        try (QueryResult r = q.execute()) {
            while (r.nextBatch() != null) {
                // Read to the end: the engine streams, and an unread result would skip work.
            }
        }
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
