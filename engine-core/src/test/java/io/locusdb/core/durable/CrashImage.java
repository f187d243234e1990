package io.locusdb.core.durable;

import java.io.IOException;
import java.io.RandomAccessFile;
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

    /** Damages one byte of {@code file}, as a failing disk or a stray write would. */
    static void flip(Path file, long offset) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(b ^ 0x40);
        }
    }
}
