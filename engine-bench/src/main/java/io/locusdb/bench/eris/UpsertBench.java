package io.locusdb.bench.eris;

import io.locusdb.core.eris.Command;
import io.locusdb.core.eris.ErisRuntime;
import io.locusdb.core.storage.index.LongRadixTree;
import io.locusdb.natives.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Figure 8's comparison on this machine: random upserts, then random lookups, into an index of N keys, routed to the
 * AEU that owns each key (ERIS) against a shared index every thread updates in place: the paper's latched baseline
 * (one prefix tree of the kind the AEUs hold, under a read-write latch) and a latch-free concurrent skip list. Clients
 * keep a window of commands in flight. On a small machine the paper finds the shared index ahead (routing costs
 * more than the NUMA effects it avoids); the ratios are printed, not checked.
 */
@CommandLine.Command(name = "upserts", mixinStandardHelpOptions = true,
        description = "Routed (ERIS) vs shared-index upserts and lookups on this machine")
final class UpsertBench implements Runnable {
    @Option(names = "--topology", description = "real | fake:N (default: LOCUS_TOPOLOGY, else the real machine)")
    String topology;

    @Option(names = "--keys", description = "key domain (default: ${DEFAULT-VALUE})")
    long keys = 1_000_000;

    @Option(names = "--clients", description = "client threads (default: one per CPU)")
    Integer clients;

    @Option(names = "--seconds", description = "measured seconds per phase (default: ${DEFAULT-VALUE})")
    int seconds = 4;

    @Option(names = "--window", description = "commands each client keeps in flight (default: ${DEFAULT-VALUE})")
    int window = 256;

    @Override
    public void run() {
        Topology t = ErisSetup.topology(topology);
        int threads = clients != null ? clients : t.cpuCount();
        System.out.printf(Locale.ROOT, "upserts then lookups: %s, %,d keys, %d client threads, window %d, %d s per"
                + " phase%n", ErisSetup.describe(t), keys, threads, window, seconds);
        try {
            double[] latched = shared(threads, latchedTree());
            double[] skipList = shared(threads, skipList());
            double[] routed;
            try (ErisRuntime eris = ErisSetup.runtime(t, keys)) {
                routed = new double[] {routed(eris, threads, true), routed(eris, threads, false)};
            }
            System.out.printf(Locale.ROOT, "shared prefix tree, latched: %,.0f upserts/s, %,.0f lookups/s%n",
                    latched[0], latched[1]);
            System.out.printf(Locale.ROOT, "shared skip list, latch-free: %,.0f upserts/s, %,.0f lookups/s%n",
                    skipList[0], skipList[1]);
            System.out.printf(Locale.ROOT, "ERIS (routed): %,.0f upserts/s, %,.0f lookups/s%n", routed[0], routed[1]);
            System.out.printf(Locale.ROOT, "ERIS / shared latched tree: upserts %.3f, lookups %.3f%n",
                    routed[0] / latched[0], routed[1] / latched[1]);
            System.out.printf(Locale.ROOT, "ERIS / shared skip list: upserts %.3f, lookups %.3f%n",
                    routed[0] / skipList[0], routed[1] / skipList[1]);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A shared index as every client thread uses it. */
    private interface SharedIndex {
        void upsert(long key);

        long lookup(long key);
    }

    private static SharedIndex latchedTree() {
        LongRadixTree tree = new LongRadixTree();
        ReentrantReadWriteLock latch = new ReentrantReadWriteLock();
        return new SharedIndex() {
            @Override
            public void upsert(long key) {
                latch.writeLock().lock();
                try {
                    tree.add(key, 1);
                } finally {
                    latch.writeLock().unlock();
                }
            }

            @Override
            public long lookup(long key) {
                latch.readLock().lock();
                try {
                    return tree.get(key, Command.MISSING);
                } finally {
                    latch.readLock().unlock();
                }
            }
        };
    }

    private static SharedIndex skipList() {
        ConcurrentSkipListMap<Long, Long> index = new ConcurrentSkipListMap<>();
        return new SharedIndex() {
            @Override
            public void upsert(long key) {
                index.merge(key, 1L, Long::sum);
            }

            @Override
            public long lookup(long key) {
                Long v = index.get(key);
                return v == null ? Command.MISSING : v;
            }
        };
    }

    private double[] shared(int threads, SharedIndex index) throws InterruptedException {
        double[] rates = new double[2];
        for (int phase = 0; phase < 2; phase++) {
            boolean upsert = phase == 0;
            AtomicLong done = new AtomicLong();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            CountDownLatch finished = new CountDownLatch(threads);
            for (int c = 0; c < threads; c++) {
                long seed = c;
                Thread.ofPlatform().start(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    long n = 0;
                    while (System.nanoTime() < end) {
                        for (int i = 0; i < window; i++) {
                            long k = random.nextLong(keys);
                            if (upsert) {
                                index.upsert(k);
                            } else {
                                index.lookup(k);
                            }
                        }
                        n += window;
                    }
                    done.addAndGet(n);
                    finished.countDown();
                });
            }
            finished.await();
            rates[phase] = done.get() / (double) seconds;
        }
        return rates;
    }

    private double routed(ErisRuntime eris, int threads, boolean upsert) throws InterruptedException {
        AtomicLong done = new AtomicLong();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        CountDownLatch finished = new CountDownLatch(threads);
        List<Thread> started = new ArrayList<>();
        for (int c = 0; c < threads; c++) {
            long seed = 100 + c;
            started.add(Thread.ofPlatform().start(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                Semaphore inFlight = new Semaphore(window);
                long n = 0;
                try {
                    while (System.nanoTime() < end) {
                        inFlight.acquire();
                        long k = random.nextLong(keys);
                        Command.Reply reply = (cmd, v) -> inFlight.release();
                        eris.submit(upsert ? new Command.Upsert(k, 1, reply) : new Command.Lookup(k, reply));
                        n++;
                    }
                    inFlight.acquire(window);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.addAndGet(n);
                finished.countDown();
            }));
        }
        finished.await();
        return done.get() / (double) seconds;
    }
}
