package io.locusdb.core.cpu;

import java.nio.file.Path;
import java.util.Optional;
import jdk.incubator.vector.LongVector;

/**
 * The kernel forms of this process, decided once when a kernel first runs (see {@link KernelSelection}). The hot
 * paths read the constants below, which C2 folds; tests and benchmarks call the kernels with a form of their own.
 * An invalid setting leaves every kernel on its automatic form and makes {@link #selection()} throw, so that
 * {@code LocusDB.open} refuses to start with it.
 */
public final class Kernels {
    private static final Path CACHE = BitExtractSpeed.defaultCache();
    private static final IllegalArgumentException SETTINGS_ERROR;
    private static final KernelSelection SELECTION;

    static {
        KernelSettings settings;
        IllegalArgumentException error = null;
        try {
            settings = KernelSettings.fromEnvironment();
        } catch (IllegalArgumentException e) {
            settings = KernelSettings.AUTO;
            error = e;
        }
        SETTINGS_ERROR = error;
        CpuInfo cpu = CpuInfo.current();
        SELECTION = KernelSelection.decide(cpu, LongVector.SPECIES_PREFERRED.length(), settings,
                () -> measuredOrCached(cpu));
    }

    public static final KernelVariant RANGE_COUNT = SELECTION.choice(KernelShape.RANGE_COUNT).variant();
    public static final KernelVariant RANGE_SELECT = SELECTION.choice(KernelShape.RANGE_SELECT).variant();
    public static final KernelVariant VERTICAL_DECODE = SELECTION.choice(KernelShape.VERTICAL_DECODE).variant();
    public static final KernelVariant GROUPED_SUMS = SELECTION.choice(KernelShape.GROUPED_SUMS).variant();
    /** Whether the range select moves bits with PEXT (native PEXT at 512 bits; never at 256; as measured, scalar). */
    public static final boolean RANGE_SELECT_PEXT = SELECTION.choice(KernelShape.RANGE_SELECT).pext();
    /** Whether PEXT/PDEP are used a word at a time (vertical decode, loading); else their portable replacements. */
    public static final boolean PEXT = SELECTION.pext();
    /** A popcount per 64-bit lane (VPOPCNTQ) for the 512-bit count kernel. */
    public static final boolean LANE_POPCOUNT = SELECTION.lanePopcount();
    /** 64-lane byte masks to and from a long (AVX-512BW), with native PEXT: the byte-mask select kernel. */
    public static final boolean BYTE_MASKS = SELECTION.byteMasks();

    /**
     * Whether the vector forms run. A fresh JVM runs a Vector API kernel as its Java fallback (an object per vector
     * operation) until C2 has compiled it, many times slower than the scalar form; a server holds the vector forms
     * back until they are compiled ({@link #holdVectorsUntilCompiled}), so that its first queries run the scalar
     * forms instead. Read once per call of a kernel, not per row.
     */
    private static volatile boolean vectorsCompiled = true;

    private Kernels() {
    }

    /** From now until {@link #vectorsCompiled()}: the kernels below answer their scalar forms. */
    public static void holdVectorsUntilCompiled() {
        vectorsCompiled = false;
    }

    /** The vector forms are compiled (or waiting longer is not worth it): the chosen forms run from now on. */
    public static void vectorsCompiled() {
        vectorsCompiled = true;
    }

    /** Whether the chosen forms run, rather than the scalar ones while the vector forms are not compiled. */
    public static boolean vectorsReady() {
        return vectorsCompiled;
    }

    /** The form the range count runs in now. */
    public static KernelVariant rangeCount() {
        return vectorsCompiled ? RANGE_COUNT : KernelVariant.SCALAR;
    }

    /** The form the vertical decode runs in now. */
    public static KernelVariant verticalDecode() {
        return vectorsCompiled ? VERTICAL_DECODE : KernelVariant.SCALAR;
    }

    /** The forms chosen; throws when a kernel setting was invalid, naming it. */
    public static KernelSelection selection() {
        if (SETTINGS_ERROR != null) {
            throw new IllegalArgumentException(SETTINGS_ERROR.getMessage(), SETTINGS_ERROR);
        }
        return SELECTION;
    }

    /** Longs in the JVM's preferred vector (its MaxVectorSize on this CPU). */
    public static int preferredLongLanes() {
        return LongVector.SPECIES_PREFERRED.length();
    }

    private static BitExtractSpeed measuredOrCached(CpuInfo cpu) {
        Optional<BitExtractSpeed> cached = BitExtractSpeed.cached(CACHE, cpu);
        if (cached.isPresent()) {
            return cached.get();
        }
        BitExtractSpeed measured = BitExtractSpeed.measure();
        measured.store(CACHE, cpu);
        return measured;
    }
}
