package io.locusdb.server.cli;

import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.storage.table.Catalog;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * What a data directory holds of TPC-H, against the scale factor {@code ./locus serve --tpch SF} asks for: nothing
 * (generate it), the same scale (keep it), or something else (refuse, naming both and the way out). The scale a
 * directory was generated at is written beside its tables ({@value #MARKER}) and trusted while {@code orders} still
 * has that scale's rows; otherwise the scale is judged by the {@code orders} rows (1,500,000 per unit of scale).
 */
final class TpchInDataDirectory {
    static final List<String> TABLES = List.of("region", "nation", "supplier", "customer", "part", "partsupp",
            "orders", "lineitem");
    static final String MARKER = "tpch.properties";
    private static final double ORDERS_PER_SCALE_UNIT = 1_500_000;

    /** What a start does about TPC-H. */
    enum Action {
        GENERATE, KEEP
    }

    private TpchInDataDirectory() {
    }

    /**
     * Whether to generate SF {@code requested} into {@code db}, whose data directory is {@code directory} (null in
     * memory). With {@code replace}, TPC-H tables already there are dropped first.
     */
    static Action decide(LocusDB db, Path directory, double requested, boolean replace) {
        Catalog catalog = db.catalog();
        List<String> present = TABLES.stream().filter(t -> catalog.find(t).isPresent()).toList();
        if (present.isEmpty()) {
            return Action.GENERATE;
        }
        if (replace) {
            try (Session s = db.connect()) {
                for (String table : present) {
                    s.execute("DROP TABLE " + table);
                }
            }
            return Action.GENERATE;
        }
        String where = directory == null ? "the database" : "the data directory " + directory;
        String wayOut = "start with another --data DIR, or add --replace to drop them and generate SF "
                + format(requested);
        if (present.size() < TABLES.size()) {
            List<String> missing = TABLES.stream().filter(t -> !present.contains(t)).toList();
            throw new StartRefusedException(where + " holds tables named like TPC-H's (" + String.join(", ", present)
                    + ") but not " + String.join(", ", missing) + ": " + wayOut);
        }
        long orders = catalog.find("orders").orElseThrow().version().rows();
        // The recorded scale, while the orders table still has the rows it was generated with (tables loaded
        // otherwise since, say by LOAD TPCH in SQL, are judged by their rows).
        double found = generatedScale(directory)
                .filter(recorded -> Math.round(recorded * ORDERS_PER_SCALE_UNIT) == orders)
                .orElse(orders / ORDERS_PER_SCALE_UNIT);
        if (Math.abs(found - requested) > 1e-9 * Math.max(1, requested)) {
            throw new StartRefusedException(where + " holds TPC-H SF " + format(found) + ", not the SF "
                    + format(requested) + " asked for: " + wayOut);
        }
        return Action.KEEP;
    }

    /** Notes the scale just generated, so that a later start can compare. */
    static void recordScale(Path directory, double scale) {
        if (directory == null) {
            return;
        }
        Properties p = new Properties();
        p.setProperty("scale_factor", Double.toString(scale));
        try (Writer w = Files.newBufferedWriter(directory.resolve(MARKER))) {
            p.store(w, "TPC-H as ./locus serve --tpch generated it");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + directory.resolve(MARKER), e);
        }
    }

    private static Optional<Double> generatedScale(Path directory) {
        if (directory == null || !Files.isRegularFile(directory.resolve(MARKER))) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(directory.resolve(MARKER))) {
            p.load(r);
            return Optional.of(Double.parseDouble(p.getProperty("scale_factor", "")));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    static String format(double scale) {
        String s = String.format(Locale.ROOT, "%.6f", scale).replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
