package io.locusdb.bench.eris;

import io.locusdb.core.eris.BalancingPolicy;
import io.locusdb.core.eris.Command;
import io.locusdb.core.eris.ErisBalancer;
import io.locusdb.core.eris.ErisRuntime;
import io.locusdb.natives.topology.Topology;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Figure 13's workload on the ERIS runtime of this machine: lookups over the whole key range, then over its first
 * half, then four shifts of that window by a sixteenth of the range, one phase each; throughput sampled every 100 ms
 * with no balancer, One-Shot, MA1 and MA8 (each on a fresh runtime). Writes {@code eris-balance.csv} and
 * {@code .png} and prints each policy's throughput per phase and its balancing events.
 */
@CommandLine.Command(name = "balance", mixinStandardHelpOptions = true,
        description = "Lookups whose hot range shifts: no balancer vs One-Shot vs MA1 vs MA8 (CSV + PNG)")
final class BalanceBench implements Runnable {
    @Option(names = "--topology", description = "real | fake:N (default: LOCUS_TOPOLOGY, else the real machine)")
    String topology;

    @Option(names = "--keys", description = "key domain (default: ${DEFAULT-VALUE})")
    long keys = 1_000_000;

    @Option(names = "--clients", description = "client threads (default: one per CPU)")
    Integer clients;

    @Option(names = "--phase-seconds", description = "seconds per phase (default: ${DEFAULT-VALUE})")
    double phaseSeconds = 3;

    @Option(names = "--policies", split = ",", description = "policies to run (default: none,one-shot,ma1,ma8)")
    List<String> policies = List.of("none", "one-shot", "ma1", "ma8");

    @Option(names = "--out", description = "output folder (default: ${DEFAULT-VALUE})")
    Path out = Path.of("eris-balance");

    private static final int PHASES = 6;
    private static final long SAMPLE_MILLIS = 100;

    @Override
    public void run() {
        Topology t = ErisSetup.topology(topology);
        int threads = clients != null ? clients : t.cpuCount();
        System.out.printf(Locale.ROOT, "balance: %s, %,d keys, %d client threads, %d phases of %.1f s%n",
                ErisSetup.describe(t), keys, threads, PHASES, phaseSeconds);
        Map<String, double[][]> series = new LinkedHashMap<>();
        try {
            Files.createDirectories(out);
            try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve("eris-balance.csv")))) {
                csv.println("policy,seconds,lookups_per_second");
                for (String name : policies) {
                    double[][] samples = runPolicy(t, threads, name);
                    series.put(name, samples);
                    for (double[] s : samples) {
                        csv.printf(Locale.ROOT, "%s,%.2f,%.0f%n", name, s[0], s[1]);
                    }
                    double[] phases = new double[PHASES];
                    int[] counts = new int[PHASES];
                    for (double[] s : samples) {
                        int p = (int) Math.min(PHASES - 1, s[0] / phaseSeconds);
                        phases[p] += s[1];
                        counts[p]++;
                    }
                    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-9s", name));
                    double all = 0;
                    for (int p = 0; p < PHASES; p++) {
                        double avg = counts[p] == 0 ? 0 : phases[p] / counts[p];
                        all += avg / PHASES;
                        line.append(String.format(Locale.ROOT, " phase %d %,9.0f/s", p + 1, avg));
                    }
                    System.out.println(line.append(String.format(Locale.ROOT, "   overall %,9.0f/s", all)));
                }
            }
            ErisSetup.chart(out.resolve("eris-balance.png"), "ERIS balancing on " + t.kind().label() + ": lookups"
                    + " whose hot range shifts", "seconds", "lookups/s", series);
            System.out.println("wrote " + out.resolve("eris-balance.csv") + " and eris-balance.png");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The hot range {lo, size} of phase {@code p}. */
    private long[] window(int p) {
        if (p == 0) {
            return new long[] {0, keys};
        }
        return new long[] {(p - 1) * keys / 16, keys / 2};
    }

    private double[][] runPolicy(Topology t, int threads, String name) throws InterruptedException {
        try (ErisRuntime eris = ErisSetup.runtime(t, keys)) {
            UpsertLoad.fill(eris, keys);
            ErisBalancer balancer = name.equals("none") ? null
                    : new ErisBalancer(eris, BalancingPolicy.parse(name), 0.2, 1000);
            if (balancer != null) {
                balancer.start(200);
            }
            AtomicReference<long[]> hot = new AtomicReference<>(window(0));
            AtomicLong done = new AtomicLong();
            long start = System.nanoTime();
            long total = (long) (PHASES * phaseSeconds * 1e9);
            List<Thread> clientThreads = new ArrayList<>();
            for (int c = 0; c < threads; c++) {
                long seed = 7 + c;
                clientThreads.add(Thread.ofPlatform().start(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    Semaphore inFlight = new Semaphore(256);
                    try {
                        while (System.nanoTime() - start < total) {
                            long[] w = hot.get();
                            inFlight.acquire();
                            eris.submit(new Command.Lookup(w[0] + random.nextLong(w[1]), (cmd, v) -> {
                                done.incrementAndGet();
                                inFlight.release();
                            }));
                        }
                        inFlight.acquire(256);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            List<double[]> samples = new ArrayList<>();
            long last = 0;
            while (System.nanoTime() - start < total) {
                Thread.sleep(SAMPLE_MILLIS);
                double seconds = (System.nanoTime() - start) / 1e9;
                hot.set(window((int) Math.min(PHASES - 1, seconds / phaseSeconds)));
                long now = done.get();
                samples.add(new double[] {seconds, (now - last) * 1000.0 / SAMPLE_MILLIS});
                last = now;
            }
            for (Thread c : clientThreads) {
                c.join();
            }
            if (balancer != null) {
                balancer.close();
                System.out.println(name + ": " + balancer.events().size() + " balancing events");
                balancer.describe().stream().limit(8).forEach(e -> System.out.println("  " + e));
            }
            return samples.toArray(double[][]::new);
        }
    }
}
