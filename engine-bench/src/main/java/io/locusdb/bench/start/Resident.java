package io.locusdb.bench.start;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A process's resident memory (VmRSS), from /proc. */
final class Resident {
    private Resident() {
    }

    /** VmRSS of process {@code pid} in bytes (0 where there is none). */
    static long of(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }
}
