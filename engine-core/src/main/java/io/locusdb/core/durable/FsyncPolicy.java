package io.locusdb.core.durable;

import java.util.Locale;

/**
 * When the write-ahead log is forced to disk, and so what a crash of the machine (not only of the process) can lose.
 * A killed process loses nothing under any policy: every record is written to the operating system before its
 * statement is acknowledged.
 */
public sealed interface FsyncPolicy {
    /** Each acknowledged statement is on disk first; concurrent commits share one fsync (group commit). */
    record EveryCommit() implements FsyncPolicy {
        @Override
        public String toString() {
            return "commit";
        }
    }

    /** A background fsync every {@code millis}: a power loss can take the last {@code millis} of commits. */
    record Grouped(long millis) implements FsyncPolicy {
        public Grouped {
            if (millis < 1) {
                throw new IllegalArgumentException("grouped fsync needs an interval of at least 1 ms, got " + millis);
            }
        }

        @Override
        public String toString() {
            return "group:" + millis;
        }
    }

    /** Never forced: the operating system writes when it likes; a power loss can take any commit not yet written. */
    record Off() implements FsyncPolicy {
        @Override
        public String toString() {
            return "off";
        }
    }

    FsyncPolicy DEFAULT = new EveryCommit();

    /** {@code commit}, {@code group:N} (N ms) or {@code off}. */
    static FsyncPolicy parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.equals("commit")) {
            return new EveryCommit();
        }
        if (t.equals("off")) {
            return new Off();
        }
        if (t.startsWith("group:")) {
            try {
                return new Grouped(Long.parseLong(t.substring("group:".length())));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad fsync policy '" + text + "': group:N takes milliseconds");
            }
        }
        throw new IllegalArgumentException("bad fsync policy '" + text + "': commit, group:N (ms) or off");
    }
}
