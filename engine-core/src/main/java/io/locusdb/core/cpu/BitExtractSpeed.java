package io.locusdb.core.cpu;

import io.locusdb.core.home.LocusHome;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;
import java.util.SplittableRandom;

/**
 * How long a PEXT ({@link Long#compress}) takes here against its portable replacement
 * ({@link PortableBits#gatherDelimiters}), in nanoseconds per word, as the select kernel uses them (12-bit codes:
 * five delimiter bits a word). Flags say whether PEXT exists; only timing says whether it is fast.
 *
 * <p>Both loops run as short chunks until C2 has compiled them (PEXT is an intrinsic of C2 only; the interpreter
 * and C1 run Java code for it) and each keeps its fastest chunk; about {@link #BUDGET_NANOS} in all, once per CPU
 * model: the result is kept in {@code cpu-kernels.properties} in the LocusDB home directory. A measurement counts as
 * settled when neither best improved in the last third of its rounds; in a JVM busy compiling other code (a test
 * run) the loops may still be interpreted at the budget's end, so it goes on up to {@link #CAP_NANOS}, and one that
 * never settles is used for this process but not cached (it once measured PEXT at 31 ns, its Java fallback).
 */
public record BitExtractSpeed(double pextNanos, double portableNanos, String source, boolean settled) {
    static final long BUDGET_NANOS = 60_000_000L;
    /** A busy JVM may not have compiled the loops within the budget: it goes on up to this long. */
    static final long CAP_NANOS = 6 * BUDGET_NANOS;
    private static final int FIELD_BITS = 13;
    private static final int WORDS = 2048;

    /** PEXT is worth using when it is no slower than the portable code. */
    public boolean pextFaster() {
        return pextNanos <= portableNanos;
    }

    public static BitExtractSpeed measure() {
        long[] words = new long[WORDS];
        SplittableRandom random = new SplittableRandom(7);
        long delimiters = 0;
        for (int i = 0; i < 64 / FIELD_BITS; i++) {
            delimiters |= 1L << (i * FIELD_BITS + FIELD_BITS - 1);
        }
        for (int i = 0; i < WORDS; i++) {
            words[i] = random.nextLong() & delimiters;
        }
        long bestPext = Long.MAX_VALUE;
        long bestPortable = Long.MAX_VALUE;
        int rounds = 0;
        int lastImproved = 0;
        long sink = 0;
        long start = System.nanoTime();
        boolean settled = false;
        while (true) {
            long t0 = System.nanoTime();
            sink += pextChunk(words, delimiters);
            long t1 = System.nanoTime();
            sink += portableChunk(words);
            long t2 = System.nanoTime();
            rounds++;
            // An improvement of under 3 % is noise, not a new tier of compiled code.
            if (t1 - t0 < bestPext * 0.97 || t2 - t1 < bestPortable * 0.97) {
                lastImproved = rounds;
            }
            bestPext = Math.min(bestPext, t1 - t0);
            bestPortable = Math.min(bestPortable, t2 - t1);
            long elapsed = t2 - start;
            settled = rounds >= 100 && lastImproved < rounds * 2 / 3;
            if (elapsed >= CAP_NANOS || (elapsed >= BUDGET_NANOS && settled)) {
                break;
            }
        }
        if (sink == 42) {
            // Keeps the loops' results alive.
            Thread.onSpinWait();
        }
        return new BitExtractSpeed((double) bestPext / WORDS, (double) bestPortable / WORDS,
                (settled ? "measured " : "measured, unsettled, ") + Instant.now(), settled);
    }

    private static long pextChunk(long[] words, long delimiters) {
        long sum = 0;
        for (long w : words) {
            sum += Long.compress(w, delimiters);
        }
        return sum;
    }

    private static long portableChunk(long[] words) {
        long sum = 0;
        for (long w : words) {
            sum += PortableBits.gatherDelimiters(w, FIELD_BITS);
        }
        return sum;
    }

    /** The default cache file: {@code $LOCUS_HOME/cpu-kernels.properties}, {@code ~/.locusdb} without LOCUS_HOME. */
    public static Path defaultCache() {
        return LocusHome.resolve("cpu-kernels.properties");
    }

    /** The measurement cached for {@code cpu}; empty when there is none or the file cannot be read as one. */
    public static Optional<BitExtractSpeed> cached(Path file, CpuInfo cpu) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
            String pext = p.getProperty(cpu.key() + ".pext_ns");
            String portable = p.getProperty(cpu.key() + ".portable_ns");
            if (pext == null || portable == null) {
                return Optional.empty();
            }
            double pextNanos = Double.parseDouble(pext);
            double portableNanos = Double.parseDouble(portable);
            if (!(pextNanos > 0) || !(portableNanos > 0)) {
                return Optional.empty();
            }
            return Optional.of(new BitExtractSpeed(pextNanos, portableNanos, "cached in " + file + " ("
                    + p.getProperty(cpu.key() + ".measured_at", "?") + ")", true));
        } catch (IOException | RuntimeException damaged) {
            // A cache: a damaged one is measured again and written over.
            return Optional.empty();
        }
    }

    /**
     * Adds this measurement for {@code cpu} to the cache file, keeping other CPUs' entries; best effort, and only a
     * settled measurement.
     */
    public boolean store(Path file, CpuInfo cpu) {
        if (!settled) {
            return false;
        }
        try {
            Properties p = new Properties();
            if (Files.isRegularFile(file)) {
                try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    p.load(r);
                } catch (IOException | RuntimeException damaged) {
                    p.clear();
                }
            }
            p.setProperty(cpu.key() + ".pext_ns", Double.toString(pextNanos));
            p.setProperty(cpu.key() + ".portable_ns", Double.toString(portableNanos));
            p.setProperty(cpu.key() + ".measured_at", Instant.now().toString());
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Path tmp = file.resolveSibling(file.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                p.store(w, "LocusDB: PEXT against its portable replacement, ns per word, per CPU model");
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return true;
        } catch (IOException | RuntimeException e) {
            // Read-only home or full disk: the next start measures again, which costs a few tens of milliseconds.
            return false;
        }
    }
}
