package io.locusdb.bench.placement;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
import io.locusdb.core.exec.stealing.StealingPolicies;
import io.locusdb.core.placer.PlacerEvent;
import io.locusdb.core.placer.PlacerSettings;
import io.locusdb.core.placer.UtilizationTracker;
import io.locusdb.core.query.scan.PartScanJob;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.natives.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One run of the placement demonstration (adaptive-placement paper, §7, query type (a)): two tables whose parts all
 * sit on node 0, clients running low-selectivity range selects on both, no inter-node stealing of scan tasks, so only
 * node 0's threads can serve them. The placer is off for the first phase; in the placer-on run it is switched on
 * at {@link Settings#enableAtSeconds()}, in the placer-off run never. A monitor samples throughput and each node's
 * thread utilization every {@link Settings#sampleMillis()}.
 */
final class PlacementRun {
    static final String[] TABLES = {"a", "b"};

    /** What a run does. */
    record Settings(Topology topology, long rowsPerTable, int clients, double seconds, double enableAtSeconds,
                    long sampleMillis, long placerPeriodMillis, double selectivity, long seed) {
    }

    /** One sample of the timeline. */
    record Sample(double seconds, double queriesPerSecond, double[] nodeThreads, int[] tableNodes) {
    }

    /**
     * What a run measured; {@code tables} names the tables whose home node each sample records (-1: parts on
     * several nodes).
     */
    record Result(boolean placer, List<String> tables, List<Sample> samples, List<PlacerEvent> events,
                  long startMillis, long queries) {
        /** Mean throughput over samples whose time is in [from, to). */
        double throughput(double from, double to) {
            return samples.stream().filter(s -> s.seconds() > from && s.seconds() <= to)
                    .mapToDouble(Sample::queriesPerSecond).average().orElse(Double.NaN);
        }

        double eventSeconds(PlacerEvent e) {
            return (e.time().toEpochMilli() - startMillis) / 1000.0;
        }
    }

    private PlacementRun() {
    }

    static Result run(Settings s, boolean placer) throws InterruptedException {
        LocusConfig config = LocusConfig.of(s.topology()).withDeltaMerge(null)
                .withExecutor(b -> b.stealing(StealingPolicies.neverFor(Set.of(PartScanJob.TASK_CLASS),
                        StealingPolicies.always())))
                .withPlacer(PlacerSettings.DEFAULT.withEnabled(false).withPeriod(s.placerPeriodMillis(),
                        Math.min(100, s.placerPeriodMillis())));
        try (LocusDB db = LocusDB.open(config)) {
            load(db, s);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong completed = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < s.clients(); c++) {
                int client = c;
                clients.add(Thread.ofPlatform().name("placement-client-" + c).start(() -> {
                    try {
                        runClient(db, s, client, stop, completed);
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                        stop.set(true);
                    }
                }));
            }
            List<Sample> samples = new ArrayList<>();
            UtilizationTracker tracker = db.placer().tracker();
            int nodes = s.topology().nodeCount();
            long start = System.nanoTime();
            long startMillis = System.currentTimeMillis();
            long last = completed.get();
            long lastNanos = start;
            boolean enabled = false;
            while (!stop.get()) {
                Thread.sleep(s.sampleMillis());
                long now = System.nanoTime();
                double seconds = (now - start) / 1e9;
                if (placer && !enabled && seconds >= s.enableAtSeconds()) {
                    db.placer().setEnabled(true);
                    enabled = true;
                }
                long done = completed.get();
                double[] threads = nodeThreads(tracker, nodes, s.sampleMillis());
                int[] where = tableNodes(db, List.of(TABLES));
                samples.add(new Sample(seconds, (done - last) / ((now - lastNanos) / 1e9), threads, where));
                last = done;
                lastNanos = now;
                if (seconds >= s.seconds()) {
                    stop.set(true);
                }
            }
            for (Thread t : clients) {
                t.join();
            }
            if (failure.get() != null) {
                throw new IllegalStateException("a client failed: " + failure.get(), failure.get());
            }
            return new Result(placer, List.of(TABLES), samples, db.placer().events().events(), startMillis,
                    completed.get());
        }
    }

    /** Each node's threads in use, averaged over the last {@code sampleMillis}. */
    static double[] nodeThreads(UtilizationTracker tracker, int nodes, long sampleMillis) {
        double[] threads = new double[nodes];
        for (int n = 0; n < nodes; n++) {
            threads[n] = tracker.nodeThreads(n).average(sampleMillis * 1000);
        }
        return threads;
    }

    /** The node each table's parts are all on, or -1 for a table whose parts are on several. */
    static int[] tableNodes(LocusDB db, List<String> tables) {
        int[] where = new int[tables.size()];
        for (int t = 0; t < where.length; t++) {
            List<TablePart> parts = db.catalog().table(tables.get(t)).version().parts();
            int node = parts.getFirst().homeNode();
            for (TablePart p : parts) {
                node = p.homeNode() == node ? node : -1;
            }
            where[t] = node;
        }
        return where;
    }

    /** Both tables, generated with the same seed, all parts on node 0. */
    private static void load(LocusDB db, Settings s) {
        try (Session session = db.connect()) {
            for (String table : TABLES) {
                session.execute("CREATE TABLE " + table + " (id BIGINT, v INTEGER, w INTEGER)").close();
                SplittableRandom random = new SplittableRandom(s.seed() + table.hashCode());
                long batch = 50_000;
                for (long from = 0; from < s.rowsPerTable(); from += batch) {
                    long to = Math.min(s.rowsPerTable(), from + batch);
                    List<Object[]> rows = new ArrayList<>((int) (to - from));
                    for (long id = from; id < to; id++) {
                        rows.add(new Object[] {id, random.nextInt(1_000_000), random.nextInt(100)});
                    }
                    db.catalog().table(table).insert(rows);
                }
                // Fold the inserted rows into a main part (the scan kernels' packed codes), then place it.
                session.execute("ALTER TABLE " + table + " MERGE PARTS TO NODE 0").close();
            }
        }
    }

    /** Range selects of {@code selectivity} on alternating tables, as fast as they come back. */
    private static void runClient(LocusDB db, Settings s, int client, AtomicBoolean stop, AtomicLong completed) {
        SplittableRandom random = new SplittableRandom(s.seed() * 31 + client);
        int width = (int) Math.max(1, Math.round(1_000_000 * s.selectivity()));
        try (Session session = db.connect()) {
            PreparedQuery[] queries = new PreparedQuery[TABLES.length];
            for (int t = 0; t < TABLES.length; t++) {
                queries[t] = session.prepare("SELECT count(*) FROM " + TABLES[t] + " WHERE v BETWEEN ? AND ?");
            }
            int next = client % TABLES.length;
            while (!stop.get()) {
                int low = random.nextInt(1_000_000 - width);
                PreparedQuery q = queries[next];
                q.set(1, low);
                q.set(2, low + width - 1);
                try (QueryResult r = q.execute()) {
                    r.toList();
                }
                completed.incrementAndGet();
                next = (next + 1) % TABLES.length;
            }
        }
    }
}
