package io.locusdb.bench.eris;

import io.locusdb.core.eris.Command;
import io.locusdb.core.eris.ErisRuntime;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** Filling a data object and the statistics the ERIS benchmarks share. */
final class UpsertLoad {
    private UpsertLoad() {
    }

    /** Upserts value 1 under every key of {@code [0, keys)}, at most 64k commands in flight. */
    static void fill(ErisRuntime eris, long keys) throws InterruptedException {
        Semaphore inFlight = new Semaphore(1 << 16);
        for (long k = 0; k < keys; k++) {
            inFlight.acquire();
            eris.submit(new Command.Upsert(k, 1, (c, v) -> inFlight.release()));
        }
        if (!inFlight.tryAcquire(1 << 16, 60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the fill did not finish");
        }
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
