package io.locusdb.server.cli;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.placer.PlacerSettings;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.storage.load.LoadProgress;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.load.TpchTextPool;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.workload.TpchQuery;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * Runs the engine's code on a small database of its own in the background right after a server starts, so that the
 * JIT compiles the planner and the scan, aggregation and join kernels before users' queries need them: a JVM starts
 * interpreting, and the Vector API kernels run their slow Java fallback until C2 has compiled them (a restarted
 * server's first TPC-H Q1 at SF 1 took 2.5 s, its third 0.11 s). The ahead-of-time cache makes classes load fast
 * but holds no compiled code in JDK 25. The database is TPC-H at SF {@value #SCALE} in memory, one worker a node,
 * dropped when done; the server's own tables are not touched. It starts once the server has been idle for a second
 * and then pauses whenever the server plans or runs a user's statement: on two cores a warm-up beside the first
 * query made that query slower (Q1 5.3-5.9 s instead of 3.1-3.5 s). {@code --warm-up off} skips it.
 */
final class KernelWarmUp implements Runnable {
    static final double SCALE = 0.01;
    /** Text for the warm-up tables' comments: a megabyte gives them TPC-H's words and lengths. */
    static final int WARM_UP_TEXT_BYTES = 1 << 20;
    /** Rounds of the 22 queries; C2 compiles a kernel after some thousands of calls, which this many make. */
    static final int ROUNDS = 12;
    /**
     * The warm-up stops after this long whatever it has reached, waits for users' statements included: it is help,
     * not a start-up step.
     */
    static final long BUDGET_NANOS = 300_000_000_000L;

    /** How long the warm-up waits for the server to be idle before it tries again. */
    private static final long PAUSE_MILLIS = 20;
    /**
     * The warm-up starts once the server has run nothing for this long: its own first steps (generating its tables,
     * planning cold) cannot pause, and beside a user's first query they made it slower, not faster.
     */
    static final long IDLE_NANOS = 1_000_000_000L;
    private final LocusConfig server;
    private final BooleanSupplier serverBusy;
    private final PrintWriter out;
    private final int rounds;

    /** {@code serverBusy}: true while the server plans or runs users' statements, which the warm-up waits for. */
    KernelWarmUp(LocusConfig server, BooleanSupplier serverBusy, PrintWriter out, int rounds) {
        this.server = server;
        this.serverBusy = serverBusy;
        this.out = out;
        this.rounds = rounds;
    }

    /** Starts the warm-up on a daemon thread (it never keeps the JVM alive). */
    static Thread start(LocusConfig server, BooleanSupplier serverBusy, PrintWriter out) {
        Thread thread = new Thread(new KernelWarmUp(server, serverBusy, out, ROUNDS), "locus-warm-up");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
        return thread;
    }

    @Override
    public void run() {
        long start = System.nanoTime();
        int ran = 0;
        LocusConfig config = LocusConfig.of(server.topology()).withDeltaMerge(null).withLoadThreads(1)
                .withBatchRows(server.batchRows()).withPlacer(PlacerSettings.DEFAULT.withEnabled(false))
                .withExecutor(b -> b.contexts(server.topology().nodeCount()).threadNamePrefix("locus-warm-up-"));
        try {
            waitUntilIdle(start);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        try (LocusDB db = LocusDB.open(config)) {
            // The warm-up's rows need only look like TPC-H's: a small text pool spares the heap 300 MiB.
            new TpchLoader(db.memory(), 1, TpchTextPool.own(WARM_UP_TEXT_BYTES)).loadAll(db.catalog(), SCALE,
                    db.topology().nodeCount(),
                    new InitialPlacement.RoundRobin(), LoadProgress.NONE);
            try (Session session = db.connect()) {
                for (int round = 0; round < rounds && System.nanoTime() - start < BUDGET_NANOS; round++) {
                    for (TpchQuery q : TpchQuery.all()) {
                        // Users' statements come first: on a small machine a warm-up beside them would slow them.
                        while (serverBusy.getAsBoolean() && System.nanoTime() - start < BUDGET_NANOS) {
                            Thread.sleep(PAUSE_MILLIS);
                        }
                        try (QueryResult r = session.execute(q.withDefaults().sql())) {
                            for (ResultBatch b = r.nextBatch(); b != null; b = r.nextBatch()) {
                                b.rows();
                            }
                        }
                        ran++;
                    }
                }
            }
            out.printf(Locale.ROOT, "warm-up: %d queries on a TPC-H SF %s database of its own in %.1f s: the engine's"
                    + " code is compiled%n", ran, SCALE, (System.nanoTime() - start) / 1e9);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.printf(Locale.ROOT, "warm-up: stopped after %d queries (interrupted)%n", ran);
        } catch (RuntimeException | OutOfMemoryError e) {
            // A warm-up that fails costs the users nothing but the compiled code it did not bring.
            out.printf(Locale.ROOT, "warm-up: stopped after %d queries (%s)%n", ran, e);
        }
        out.flush();
    }

    /** Waits until the server has been idle for {@link #IDLE_NANOS} (or the budget is spent). */
    private void waitUntilIdle(long start) throws InterruptedException {
        long idleSince = System.nanoTime();
        while (System.nanoTime() - idleSince < IDLE_NANOS && System.nanoTime() - start < BUDGET_NANOS) {
            Thread.sleep(PAUSE_MILLIS);
            if (serverBusy.getAsBoolean()) {
                idleSince = System.nanoTime();
            }
        }
    }
}
