package io.locusdb.core.cpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import jdk.incubator.vector.LongVector;

/**
 * Which instructions the scan and decode kernels may rely on. The Vector API runs everywhere, but an operation the CPU lacks is
 * emulated, often slower than the scalar code it replaces; so each fast kernel is chosen only when its instructions
 * are native, read once from the kernel's CPU flags (LocusDB runs on Linux). {@code -Dlocus.scan.portable=true}
 * forces the portable kernels, for comparisons and for machines whose flags lie (some hypervisors).
 */
public final class CpuFeatures {
    private static final Set<String> FLAGS = readFlags(Path.of("/proc/cpuinfo"));
    private static final boolean PORTABLE = Boolean.getBoolean("locus.scan.portable");
    private static final boolean WIDE_VECTORS = LongVector.SPECIES_PREFERRED.length() == 8;

    /**
     * 64-lane byte masks to and from a long, and PEXT: the byte-mask select kernel, and vertical codes decoded a
     * 64-row word at a time.
     */
    public static final boolean BYTE_MASKS = !PORTABLE && WIDE_VECTORS && FLAGS.contains("avx512bw")
            && FLAGS.contains("bmi2");
    /** A popcount per 64-bit lane (VPOPCNTQ): the popcount count kernel. */
    public static final boolean LANE_POPCOUNT = !PORTABLE && WIDE_VECTORS && FLAGS.contains("avx512_vpopcntdq");

    private CpuFeatures() {
    }

    static Set<String> readFlags(Path cpuinfo) {
        try (var lines = Files.lines(cpuinfo)) {
            return lines.filter(line -> line.startsWith("flags"))
                    .findFirst()
                    .map(line -> Arrays.stream(line.substring(line.indexOf(':') + 1).trim().split("\\s+"))
                            .collect(Collectors.toUnmodifiableSet()))
                    .orElse(Set.of());
        } catch (IOException | RuntimeException e) {
            // No flags known: every kernel falls back to its portable form, which is correct everywhere.
            return Set.of();
        }
    }
}
