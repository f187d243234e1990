package io.locusdb.bench.eris;

import io.locusdb.core.eris.Command;
import io.locusdb.core.eris.ErisRuntime;
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
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Figure 8's comparison on this machine: random upserts, then random lookups, into an index of N keys, routed to the
 * AEU that owns each key (ERIS) against a shared index every thread updates in place (a concurrent skip list, the
 * latched baseline). Clients keep a window of commands in flight. On a small machine the paper finds the shared
 * index ahead (routing costs more than the NUMA effects it avoids); the ratio is printed, not checked.
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
            double[] shared = shared(threads);
            double[] routed;
            try (ErisRuntime eris = ErisSetup.runtime(t, keys)) {
                routed = new double[] {routed(eris, threads, true), routed(eris, threads, false)};
            }
            System.out.printf(Locale.ROOT, "shared index: %,.0f upserts/s, %,.0f lookups/s%n", shared[0], shared[1]);
            System.out.printf(Locale.ROOT, "ERIS (routed): %,.0f upserts/s, %,.0f lookups/s%n", routed[0], routed[1]);
            System.out.printf(Locale.ROOT, "ERIS / shared: upserts %.3f, lookups %.3f%n", routed[0] / shared[0],
                    routed[1] / shared[1]);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private double[] shared(int threads) throws InterruptedException {
        ConcurrentSkipListMap<Long, Long> index = new ConcurrentSkipListMap<>();
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
                                index.merge(k, 1L, Long::sum);
                            } else {
                                index.get(k);
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
