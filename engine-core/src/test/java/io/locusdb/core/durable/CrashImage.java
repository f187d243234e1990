package io.locusdb.core.durable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** A copy of a data directory as a crash of its process would leave it: whatever reached the files, no lock. */
final class CrashImage {
    private CrashImage() {
    }

    static Path copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else if (!f.getFileName().toString().equals("LOCK")) {
                    Files.copy(f, target);
                }
            }
        }
        return to;
    }
}
