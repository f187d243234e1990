package io.locusdb.core.eris;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Routed data commands under load while the balancer keeps moving range bounds: every upsert is applied and
 * answered exactly once (the sum of all values is the sum of all deltas), lookups and shared scans are answered,
 * commands that reach an AEU for a range it gave away are forwarded, and at the end each AEU holds only its range.
 */
class ErisRoutingTest {
    private static final long KEYS = 20_000;

    @Test
    void nothingIsLostOrAppliedTwiceWhileRangesMove() throws Exception {
        ErisRuntime eris = new ErisRuntime(new int[] {0, 0, 1, 1}, KEYS, 256, aeu -> { });
        int submitters = 4;
        int upsertsEach = 30_000;
        AtomicIntegerArray replies = new AtomicIntegerArray(submitters * upsertsEach);
        AtomicLong deltas = new AtomicLong();
        AtomicLong lookupsAnswered = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        List<CompletableFuture<long[]>> scans = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < submitters; s++) {
            int submitter = s;
            threads.add(Thread.ofPlatform().start(() -> {
                SplittableRandom random = new SplittableRandom(submitter);
                for (int i = 0; i < upsertsEach; i++) {
                    int id = submitter * upsertsEach + i;
                    long delta = 1 + random.nextInt(100);
                    deltas.addAndGet(delta);
                    eris.submit(new Command.Upsert(random.nextLong(KEYS), delta, (c, v) -> replies.incrementAndGet(id)));
                    if (i % 10 == 0) {
                        eris.submit(new Command.Lookup(random.nextLong(KEYS), (c, v) -> lookupsAnswered.incrementAndGet()));
                    }
                }
            }));
        }
        Thread balancer = Thread.ofPlatform().start(() -> {
            SplittableRandom random = new SplittableRandom(99);
            while (running.get()) {
                long a = 1 + random.nextLong(KEYS / 3);
                long b = a + 1 + random.nextLong(KEYS / 3);
                long c = b + 1 + random.nextLong(KEYS / 3);
                try {
                    eris.rebalance(new long[] {Long.MIN_VALUE, a, b, c});
                    Command.ScanResult all = new Command.ScanResult();
                    eris.submit(new Command.Scan(0, KEYS - 1, all));
                    synchronized (scans) {
                        scans.add(all.result());
                    }
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        for (Thread t : threads) {
            t.join();
        }
        running.set(false);
        balancer.join();
        for (CompletableFuture<long[]> scan : scans) {
            assertThat(scan.get(30, TimeUnit.SECONDS)[0]).isBetween(0L, deltas.get());
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && !allAnswered(replies)) {
            Thread.sleep(10);
        }
        Command.ScanResult total = new Command.ScanResult();
        eris.submit(new Command.Scan(0, KEYS - 1, total));
        long scanned = total.result().get(30, TimeUnit.SECONDS)[0];
        RangeTable table = eris.table();
        long forwarded = eris.forwarded();
        Map<Long, Long> entries = eris.closeAndCollect();
        for (int i = 0; i < replies.length(); i++) {
            assertThat(replies.get(i)).as("replies to upsert %d", i).isEqualTo(1);
        }
        assertThat(entries.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(deltas.get());
        assertThat(scanned).as("a shared full scan after the load").isEqualTo(deltas.get());
        assertThat(lookupsAnswered.get()).isEqualTo((long) submitters * upsertsEach / 10);
        assertThat(scans).as("rebalances done under load").hasSizeGreaterThan(3);
        for (int i = 0; i < eris.aeus(); i++) {
            Aeu aeu = eris.aeu(i);
            for (long k : aeu.entries().keySet()) {
                assertThat(table.ownerOf(k)).as("owner of key %d held by AEU %d", k, i).isEqualTo(i);
            }
        }
        System.out.printf("[eris] %d rebalances, %d commands forwarded, transfers linked/copied %s%n", scans.size(),
                forwarded, Arrays.toString(eris.transfers()));
        assertThat(forwarded).as("commands that reached an AEU for a range it had given away").isPositive();
    }

    private static boolean allAnswered(AtomicIntegerArray replies) {
        for (int i = 0; i < replies.length(); i++) {
            if (replies.get(i) == 0) {
                return false;
            }
        }
        return true;
    }

    @Test
    void aCommandThatReachesTheWrongAeuIsForwardedToTheOwner() throws Exception {
        ErisRuntime eris = new ErisRuntime(new int[] {0, 1}, 1000, 64, aeu -> { });
        CompletableFuture<Long> upserted = new CompletableFuture<>();
        CompletableFuture<Long> found = new CompletableFuture<>();
        // Key 900 belongs to AEU 1; hand both commands to AEU 0 as a router with an old table would.
        eris.aeu(0).incoming.offer(new Command.Upsert(900, 7, (c, v) -> upserted.complete(v)));
        eris.aeu(0).wake();
        assertThat(upserted.get(10, TimeUnit.SECONDS)).isEqualTo(7);
        eris.aeu(0).incoming.offer(new Command.Lookup(900, (c, v) -> found.complete(v)));
        eris.aeu(0).wake();
        assertThat(found.get(10, TimeUnit.SECONDS)).isEqualTo(7);
        assertThat(eris.forwarded()).isEqualTo(2);
        Map<Long, Long> entries = eris.closeAndCollect();
        assertThat(entries).containsExactly(Map.entry(900L, 7L));
        assertThat(eris.aeu(1).entries()).containsKey(900L);
    }

    @Test
    void sharedAndUnsharedScansGiveTheSameSums() throws Exception {
        for (boolean share : new boolean[] {true, false}) {
            ErisRuntime eris = new ErisRuntime(new int[] {0, 0, 1}, 3000, 128, aeu -> { });
            eris.shareScans(share);
            List<CompletableFuture<Long>> done = new ArrayList<>();
            for (long k = 0; k < 3000; k++) {
                CompletableFuture<Long> f = new CompletableFuture<>();
                eris.submit(new Command.Upsert(k, k, (c, v) -> f.complete(v)));
                done.add(f);
            }
            CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
            List<Command.ScanResult> results = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                Command.ScanResult r = new Command.ScanResult();
                eris.submit(new Command.Scan(i * 10, i * 10 + 2500, r));
                results.add(r);
            }
            for (int i = 0; i < 64; i++) {
                long lo = i * 10;
                long hi = Math.min(2999, lo + 2500);
                long expected = (lo + hi) * (hi - lo + 1) / 2;
                assertThat(results.get(i).result().get(10, TimeUnit.SECONDS))
                        .as("scan %d, sharing %s", i, share).containsExactly(expected, hi - lo + 1);
            }
            eris.close();
        }
    }
}
