package io.locusdb.core.exec.stealing;

import io.locusdb.core.home.LocusHome;
import io.locusdb.core.exec.StealingPolicy;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * The machine figures the calibration run stores and the executor and placer read back: the stealing threshold
 * (memory throughput of a task class above which inter-node stealing hurts), and the page move and repartition
 * speeds. Kept as a small properties file, by default {@code $LOCUS_HOME/calibration.properties}
 * ({@code ~/.locusdb} without LOCUS_HOME).
 */
public record Calibration(double stealingThresholdBytesPerSecond, double pageMoveMicrosPerPage,
                          double tableMoveMicrosPerPage, double repartitionMicrosPerPage, String topology,
                          String note, Instant measuredAt) {

    public static Path defaultPath() {
        return LocusHome.resolve("calibration.properties");
    }

    public void save(Path file) throws IOException {
        Properties p = new Properties();
        p.setProperty("stealing.threshold.bytes_per_second", Double.toString(stealingThresholdBytesPerSecond));
        p.setProperty("page_move.us_per_page", Double.toString(pageMoveMicrosPerPage));
        p.setProperty("table_move.us_per_page", Double.toString(tableMoveMicrosPerPage));
        p.setProperty("repartition.us_per_page", Double.toString(repartitionMicrosPerPage));
        p.setProperty("topology", topology);
        p.setProperty("note", note);
        p.setProperty("measured_at", measuredAt.toString());
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            p.store(w, "LocusDB calibration (./locus calibrate)");
        }
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** The stored calibration, or empty when the file does not exist; a damaged file is an error naming it. */
    public static Optional<Calibration> load(Path file) throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        try {
            return Optional.of(new Calibration(number(p, "stealing.threshold.bytes_per_second"),
                    number(p, "page_move.us_per_page"), number(p, "table_move.us_per_page"),
                    number(p, "repartition.us_per_page"), p.getProperty("topology", "?"), p.getProperty("note", ""),
                    Instant.parse(p.getProperty("measured_at", Instant.EPOCH.toString()))));
        } catch (IllegalArgumentException | java.time.DateTimeException e) {
            throw new IOException("calibration file " + file + " is damaged: " + e.getMessage()
                    + " (run ./locus calibrate again)", e);
        }
    }

    private static double number(Properties p, String key) {
        String value = p.getProperty(key);
        if (value == null) {
            throw new IllegalArgumentException("missing " + key);
        }
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " is not a number: '" + value + "'");
        }
    }

    /** The adaptive policy with the stored threshold, or with the default threshold when nothing is stored. */
    public static StealingPolicy adaptivePolicy(Path file) throws IOException {
        return load(file).map(c -> StealingPolicies.adaptive(c.stealingThresholdBytesPerSecond()))
                .orElseGet(() -> StealingPolicies.adaptive(io.locusdb.core.exec.ExecutorConfig
                        .DEFAULT_STEALING_THRESHOLD));
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "stealing threshold %.1f MB/s, page move %.3f µs/page, table move %.3f"
                        + " µs/page, repartition %.3f µs/page (%s, %s)", stealingThresholdBytesPerSecond / 1e6,
                pageMoveMicrosPerPage, tableMoveMicrosPerPage, repartitionMicrosPerPage, topology, measuredAt);
    }
}
