package io.locusdb.core.durable;

import io.locusdb.core.home.LocusHome;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and how a database keeps its data on disk.
 *
 * @param directory            the data directory (created if missing)
 * @param fsync                when the log is forced to disk
 * @param checkpointLogBytes   a checkpoint starts once the log holds this many bytes
 * @param checkpointIntervalMs a checkpoint also starts this often when anything changed since the last (merged
 *                             deltas are not in the log: a checkpoint records them)
 */
public record Durability(Path directory, FsyncPolicy fsync, long checkpointLogBytes, long checkpointIntervalMs) {
    public static final long DEFAULT_CHECKPOINT_LOG_BYTES = 64L << 20;
    public static final long DEFAULT_CHECKPOINT_INTERVAL_MS = 60_000;

    public Durability {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(fsync, "fsync");
        if (checkpointLogBytes < 1 || checkpointIntervalMs < 1) {
            throw new IllegalArgumentException("checkpoint thresholds must be positive");
        }
    }

    public static Durability in(Path directory) {
        return new Durability(directory, FsyncPolicy.DEFAULT, DEFAULT_CHECKPOINT_LOG_BYTES,
                DEFAULT_CHECKPOINT_INTERVAL_MS);
    }

    public Durability withFsync(FsyncPolicy policy) {
        return new Durability(directory, policy, checkpointLogBytes, checkpointIntervalMs);
    }

    public Durability withCheckpointLogBytes(long bytes) {
        return new Durability(directory, fsync, bytes, checkpointIntervalMs);
    }

    public Durability withCheckpointInterval(long millis) {
        return new Durability(directory, fsync, checkpointLogBytes, millis);
    }

    /** The directory a server keeps its data in when none is given: {@code $LOCUS_HOME/data} ({@code ~/.locusdb}). */
    public static Path defaultDirectory() {
        return LocusHome.resolve("data");
    }
}
