package io.locusdb.core.home;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where LocusDB keeps what it writes by default: {@code $LOCUS_HOME}, else {@code ~/.locusdb}. The data directory,
 * the calibration and CPU-kernel caches and the SQL shell's history all live under it, so one variable moves them
 * all (a test run, a second installation, a container volume).
 */
public final class LocusHome {
    public static final String VARIABLE = "LOCUS_HOME";

    private LocusHome() {
    }

    /** The home directory of this process. */
    public static Path directory() {
        return directory(System.getenv(), System.getProperty("user.home"));
    }

    /** The home directory for an environment and a user's home directory. */
    public static Path directory(Map<String, String> environment, String userHome) {
        String home = environment.get(VARIABLE);
        return home != null && !home.isBlank() ? Path.of(home) : Path.of(userHome, ".locusdb");
    }

    /** A file or directory under the home directory. */
    public static Path resolve(String name) {
        return directory().resolve(name);
    }
}
