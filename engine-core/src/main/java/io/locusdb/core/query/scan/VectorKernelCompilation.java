package io.locusdb.core.query.scan;

import io.locusdb.core.cpu.KernelVariant;
import io.locusdb.core.cpu.Kernels;
import io.locusdb.core.query.agg.GroupedSums;
import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.column.PackedLayout;
import io.locusdb.core.storage.scan.IdRange;
import io.locusdb.core.storage.scan.PackedRangeScan;
import io.locusdb.core.storage.scan.ScanBytes;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Gets the Vector API kernels compiled while a fresh server runs its first queries with the scalar forms. Until C2
 * has compiled a vector kernel, the JVM runs the Vector API's Java fallback, an object per vector operation: a
 * restarted server's first TPC-H Q1 at SF 1 took 4.0 s with the vector forms and 1.5 s with the scalar ones (warm:
 * 0.12 s and 0.16 s). So the server holds the vector forms back ({@link Kernels#holdVectorsUntilCompiled}) and this
 * runs each chosen vector form and its scalar form side by side on made-up codes of its own; once a kernel's vector
 * form has been the faster in {@value #WINS} rounds in a row it counts as compiled, and once every one has, the
 * vector forms run everywhere. It starts once the server has been idle for {@link #IDLE_NANOS}: on two cores it
 * slowed the start (listening 1.3 s instead of 0.95 s) and the first queries beside it. A server busy from the
 * start would keep the slower scalar forms, so it starts {@link #START_AT_LATEST_NANOS} after the server listens
 * whatever the server does, and the vector forms run {@link #BUDGET_NANOS} after that, compiled or not. (The
 * background warm-up's queries meanwhile compile the scalar forms' callers.)
 */
public final class VectorKernelCompilation implements Runnable {
    /** After this long the vector forms run whether or not they have overtaken the scalar ones. */
    static final long BUDGET_NANOS = 30_000_000_000L;
    /** Rounds in a row in which a kernel's vector form must beat its scalar form. */
    static final int WINS = 3;
    private static final int ROWS = 16_384;
    /** Timed calls of each form per round; the fastest counts. */
    private static final int CALLS = 8;
    /** How long the server must have run nothing before the compilation starts. */
    static final long IDLE_NANOS = 1_000_000_000L;
    /** When the compilation starts, after the server listens, however busy it is. */
    static final long START_AT_LATEST_NANOS = 5_000_000_000L;
    private static final long PAUSE_MILLIS = 20;
    /** A pause between rounds: the timing loop shares two cores with the server's first queries. */
    private static final long ROUND_PAUSE_MILLIS = 2;

    /** One kernel in its vector form or its scalar form; returns a checksum, so that nothing is optimized away. */
    private interface Kernel {
        long run(boolean vector);
    }

    private record Named(String name, Kernel kernel) {
    }

    private final Consumer<String> log;
    private final BooleanSupplier busy;
    private final long budgetNanos;
    private long startedAt;
    private long sink;

    VectorKernelCompilation(Consumer<String> log, BooleanSupplier busy, long budgetNanos) {
        this.log = log;
        this.busy = busy;
        this.budgetNanos = budgetNanos;
    }

    /**
     * Holds the vector forms back from now on (right before a server listens); false, and nothing held, when every
     * kernel's chosen form is scalar.
     */
    public static boolean hold() {
        if (!anyVectorForm()) {
            return false;
        }
        Kernels.holdVectorsUntilCompiled();
        return true;
    }

    /** Lets the vector forms run again without compiling them first (a server that failed to start). */
    public static void release() {
        Kernels.vectorsCompiled();
    }

    /**
     * Compiles the held vector forms on a daemon thread once the server ({@code busy}: planning or running users'
     * statements) has been idle for a second, and lets them run; tells {@code log} when they do. The deadlines count
     * from this call (the server listening). Null when nothing was held.
     */
    public static Thread start(boolean held, BooleanSupplier busy, Consumer<String> log) {
        if (!held) {
            return null;
        }
        Thread thread = new Thread(new VectorKernelCompilation(log, busy, BUDGET_NANOS),
                "locus-kernel-compile");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    static boolean anyVectorForm() {
        return Kernels.VERTICAL_DECODE != KernelVariant.SCALAR || Kernels.RANGE_COUNT != KernelVariant.SCALAR
                || Kernels.RANGE_SELECT != KernelVariant.SCALAR || Kernels.GROUPED_SUMS != KernelVariant.SCALAR;
    }

    @Override
    public void run() {
        startedAt = System.nanoTime();
        // Kernels whose vector form was not yet seen faster, or why that could not be seen.
        List<String> unsettled = List.of();
        try (Arena arena = Arena.ofConfined()) {
            waitUntilIdle();
            List<Named> kernels = kernels(arena);
            int[] wins = new int[kernels.size()];
            List<String> pending = new ArrayList<>();
            do {
                pending.clear();
                for (int k = 0; k < kernels.size(); k++) {
                    if (wins[k] >= WINS) {
                        continue;
                    }
                    Kernel kernel = kernels.get(k).kernel();
                    wins[k] = fastest(kernel, true) < fastest(kernel, false) ? wins[k] + 1 : 0;
                    if (wins[k] < WINS) {
                        pending.add(kernels.get(k).name());
                    }
                }
                if (!pending.isEmpty()) {
                    Thread.sleep(ROUND_PAUSE_MILLIS);
                }
            } while (!pending.isEmpty() && System.nanoTime() - startedAt < budgetNanos);
            unsettled = pending;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            unsettled = List.of("interrupted");
        } catch (RuntimeException | OutOfMemoryError e) {
            // The vector forms are correct either way: only when they became fast is unknown.
            unsettled = List.of(e.toString());
        } finally {
            Kernels.vectorsCompiled();
        }
        double seconds = (System.nanoTime() - startedAt) / 1e9;
        log.accept(unsettled.isEmpty()
                ? String.format(Locale.ROOT, "kernels: the vector forms are compiled and run from now on (%.1f s after"
                        + " listening; queries before ran the scalar forms)", seconds)
                : String.format(Locale.ROOT, "kernels: the vector forms run from now on, %.1f s after listening, though"
                        + " not seen faster than the scalar forms: %s", seconds, String.join(", ", unsettled)));
    }

    /** Waits until the server has been idle for {@link #IDLE_NANOS}, or {@link #START_AT_LATEST_NANOS}. */
    private void waitUntilIdle() throws InterruptedException {
        long idleSince = System.nanoTime();
        long latest = Math.min(START_AT_LATEST_NANOS, budgetNanos);
        while (System.nanoTime() - idleSince < IDLE_NANOS && System.nanoTime() - startedAt < latest) {
            Thread.sleep(PAUSE_MILLIS);
            if (busy.getAsBoolean()) {
                idleSince = System.nanoTime();
            }
        }
    }

    /** Nanoseconds of the fastest of {@link #CALLS} calls. */
    private long fastest(Kernel kernel, boolean vector) {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < CALLS; i++) {
            long t0 = System.nanoTime();
            sink += kernel.run(vector);
            best = Math.min(best, System.nanoTime() - t0);
        }
        return best;
    }

    /** The kernels whose chosen form is a vector form, each on made-up codes of the layouts they serve. */
    private static List<Named> kernels(Arena arena) {
        SplittableRandom random = new SplittableRandom(42);
        PackedCodes vertical = codes(PackedLayout.vertical(4), random, arena);
        PackedCodes horizontal = codes(PackedLayout.horizontal(12), random, arena);
        IdRange verticalRange = new IdRange(3, 11);
        IdRange horizontalRange = new IdRange(500, 3000);
        ScanBytes bytes = new ScanBytes();
        List<Named> kernels = new ArrayList<>();
        if (Kernels.VERTICAL_DECODE != KernelVariant.SCALAR) {
            int[] out = new int[ROWS];
            kernels.add(new Named("vertical decode", vector -> {
                vertical.unpackVertical(0, ROWS, out, vector ? Kernels.VERTICAL_DECODE : KernelVariant.SCALAR,
                        Kernels.PEXT);
                return out[ROWS - 1];
            }));
        }
        if (Kernels.RANGE_COUNT != KernelVariant.SCALAR) {
            kernels.add(new Named("range count", vector -> {
                KernelVariant form = vector ? Kernels.RANGE_COUNT : KernelVariant.SCALAR;
                return PackedRangeScan.count(vertical, verticalRange, bytes, form)
                        + PackedRangeScan.count(horizontal, horizontalRange, bytes, form);
            }));
        }
        if (Kernels.RANGE_SELECT != KernelVariant.SCALAR) {
            long[] selection = new long[ROWS / 64];
            kernels.add(new Named("range select", vector -> {
                KernelVariant form = vector ? Kernels.RANGE_SELECT : KernelVariant.SCALAR;
                boolean pext = vector ? Kernels.RANGE_SELECT_PEXT : Kernels.PEXT;
                PackedRangeScan.select(vertical, verticalRange, selection, bytes, true, form, pext);
                PackedRangeScan.select(horizontal, horizontalRange, selection, bytes, false, form, pext);
                return selection[selection.length - 1];
            }));
        }
        if (Kernels.GROUPED_SUMS != KernelVariant.SCALAR) {
            int[] groups = new int[ROWS];
            long[] values = new long[ROWS];
            for (int i = 0; i < ROWS; i++) {
                groups[i] = random.nextInt(4);
                values[i] = random.nextLong(1_000_000);
            }
            kernels.add(new Named("grouped sums", vector -> GroupedSums.exercise(groups, values, vector)));
        }
        return kernels;
    }

    private static PackedCodes codes(PackedLayout layout, SplittableRandom random, Arena arena) {
        PackedCodes.Writer writer = PackedCodes.writer(arena.allocate(layout.bytesFor(ROWS) + 64, 64), layout);
        for (int r = 0; r < ROWS; r++) {
            writer.add((int) (random.nextLong() & layout.codeMask()));
        }
        return writer.finish();
    }
}
