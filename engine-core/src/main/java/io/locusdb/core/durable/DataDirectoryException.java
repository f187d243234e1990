package io.locusdb.core.durable;

import java.nio.file.Path;

/**
 * A data directory that cannot be used as it is: the start stops rather than run on part of the data. The
 * {@link Problem} says what is wrong and {@link #file()} where, so that an operator (or a test) need not read the
 * message.
 */
public final class DataDirectoryException extends RuntimeException {
    /** What is wrong with the directory. */
    public enum Problem {
        /** Another LocusDB process holds the directory's lock. */
        IN_USE,
        /** A log record other than the last one fails its checksum or does not parse. */
        CORRUPT_LOG,
        /** A part or delta file fails its checksum, is cut short or does not parse. */
        CORRUPT_FILE,
        /** A file that the manifest lists is not there. */
        MISSING_FILE,
        /** The manifest is missing while other files are present, or it does not parse. */
        BAD_MANIFEST,
        /** Reading or writing failed in the file system. */
        IO
    }

    private final Problem problem;
    private final Path file;

    public DataDirectoryException(Problem problem, Path file, String message) {
        this(problem, file, message, null);
    }

    public DataDirectoryException(Problem problem, Path file, String message, Throwable cause) {
        super(file + ": " + message, cause);
        this.problem = problem;
        this.file = file;
    }

    public Problem problem() {
        return problem;
    }

    public Path file() {
        return file;
    }
}
