package io.locusdb.natives.topology;

import io.locusdb.natives.ffm.LibC;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What the process is allowed to use: its CPU affinity mask and its cpuset's memory nodes ({@code Mems_allowed}),
 * as inside a container started with {@code --cpuset-cpus/--cpuset-mems}.
 */
public final class ProcessLimits {
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path MEMINFO = Path.of("/proc/meminfo");

    private ProcessLimits() {
    }

    /** CPUs in the calling thread's affinity mask (grows the mask until the kernel accepts its size). */
    public static CpuSet allowedCpus() {
        int bytes = 128;
        while (true) {
            try {
                return CpuSet.fromMaskWords(LibC.schedGetAffinity(bytes));
            } catch (io.locusdb.natives.ffm.NativeCallException e) {
                if (e.errno() != io.locusdb.natives.ffm.Errno.EINVAL || bytes >= 1 << 16) {
                    throw e;
                }
                bytes *= 2;
            }
        }
    }

    /** Memory nodes the process may allocate from; empty if the kernel does not say. */
    public static Optional<CpuSet> allowedMemoryNodes() {
        return statusField("Mems_allowed_list").map(CpuSet::parse);
    }

    static Optional<String> statusField(String name) {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith(name + ":")) {
                    return Optional.of(line.substring(name.length() + 1).trim());
                }
            }
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** {MemTotal, MemAvailable} in bytes from /proc/meminfo; zeros if unreadable. */
    public static long[] systemMemory() {
        long total = 0;
        long available = 0;
        try {
            for (String line : Files.readAllLines(MEMINFO)) {
                if (line.startsWith("MemTotal:")) {
                    total = kib(line);
                } else if (line.startsWith("MemAvailable:")) {
                    available = kib(line);
                }
            }
        } catch (IOException | SecurityException | NumberFormatException e) {
            return new long[] {0, 0};
        }
        return new long[] {total, available};
    }

    private static long kib(String line) {
        String[] parts = line.split("\\s+");
        return Long.parseLong(parts[1]) * 1024;
    }
}
