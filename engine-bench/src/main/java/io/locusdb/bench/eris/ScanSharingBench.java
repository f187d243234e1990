package io.locusdb.bench.eris;

import io.locusdb.core.eris.Command;
import io.locusdb.core.eris.ErisRuntime;
import io.locusdb.natives.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Scan sharing on the ERIS runtime: N clients scan the whole keyed data object over and over, with sharing off (each
 * AEU makes one pass per scan) and on (one pass per round serves every scan waiting at the AEU), alternating in one
 * run. Every answer is checked. Ends with {@code check scan-sharing measured=on/off target=2}.
 */
@CommandLine.Command(name = "scans", mixinStandardHelpOptions = true, description = "Shared vs unshared scans on the ERIS runtime")
final class ScanSharingBench implements Runnable {
    @Option(names = "--topology", description = "real | fake:N (default: LOCUS_TOPOLOGY, else the real machine)")
    String topology;

    @Option(names = "--keys", description = "keys in the data object (default: ${DEFAULT-VALUE})")
    long keys = 1_000_000;

    @Option(names = "--clients", description = "concurrent scanning clients (default: ${DEFAULT-VALUE})")
    int clients = 64;

    @Option(names = "--seconds", description = "measured seconds per run (default: ${DEFAULT-VALUE})")
    int seconds = 5;

    @Option(names = "--rounds", description = "runs of each setting, alternating (default: ${DEFAULT-VALUE})")
    int rounds = 3;

    @Override
    public void run() {
        Topology t = ErisSetup.topology(topology);
        try (ErisRuntime eris = ErisSetup.runtime(t, keys)) {
            System.out.printf(Locale.ROOT, "scan sharing: %s, %,d keys, %d clients scanning all keys, %d s per run,"
                    + " %d rounds%n", ErisSetup.describe(t), keys, clients, seconds, rounds);
            UpsertLoad.fill(eris, keys);
            List<Double> off = new ArrayList<>();
            List<Double> on = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                for (boolean share : new boolean[] {false, true}) {
                    eris.shareScans(share);
                    double rate = scans(eris);
                    (share ? on : off).add(rate);
                    System.out.printf(Locale.ROOT, "round %d, sharing %-3s: %8.1f scans/s (%.1f M keys/s)%n", round,
                            share ? "on" : "off", rate, rate * keys / 1e6);
                }
            }
            double medianOff = UpsertLoad.median(off);
            double medianOn = UpsertLoad.median(on);
            System.out.printf(Locale.ROOT, "medians: sharing off %.1f scans/s, on %.1f scans/s%n", medianOff, medianOn);
            System.out.println(ErisSetup.check("scan-sharing", medianOn / medianOff, 2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private double scans(ErisRuntime eris) throws InterruptedException {
        AtomicLong done = new AtomicLong();
        AtomicLong wrong = new AtomicLong();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        CountDownLatch finished = new CountDownLatch(clients);
        for (int c = 0; c < clients; c++) {
            Thread.ofPlatform().start(() -> {
                try {
                    while (System.nanoTime() < end) {
                        Command.ScanResult result = new Command.ScanResult();
                        eris.submit(new Command.Scan(0, keys - 1, result));
                        long[] answer = result.result().get(60, TimeUnit.SECONDS);
                        if (answer[1] != keys || answer[0] != keys) {
                            wrong.incrementAndGet();
                        }
                        done.incrementAndGet();
                    }
                } catch (Exception e) {
                    wrong.incrementAndGet();
                } finally {
                    finished.countDown();
                }
            });
        }
        finished.await();
        if (wrong.get() > 0) {
            throw new IllegalStateException(wrong.get() + " scans answered wrongly");
        }
        return done.get() / (double) seconds;
    }
}
