package io.locusdb.trino;

import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The 22 TPC-H queries as Trino's tpch library writes them, and answers in a form two catalogs can compare in. */
final class TpchQueries {
    private TpchQueries() {
    }

    /** Query {@code n} (Q15's view as a WITH clause, since the catalogs compared here have no views). */
    static String text(int n) {
        String text;
        try (InputStream in = TpchQueries.class.getClassLoader().getResourceAsStream(
                "io/trino/tpch/queries/q" + n + ".sql")) {
            if (in == null) {
                throw new IllegalArgumentException("no TPC-H query " + n);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        text = text.lines().filter(l -> !l.strip().startsWith("--")).collect(Collectors.joining("\n")).strip();
        if (n == 15) {
            int view = text.indexOf("AS\n") + 3;
            int end = text.indexOf(';');
            text = "WITH revenue AS (" + text.substring(view, end) + ")\n" + text.substring(end + 1).strip();
        }
        return text.endsWith(";") ? text.substring(0, text.length() - 1) : text;
    }

    /**
     * Rows as text, numbers to 4 places (LocusDB's TPC-H decimals are DECIMAL(15,2), the tpch catalog's
     * DECIMAL(12,2), so divisions differ in their last digits), sorted.
     */
    static List<String> canonical(MaterializedResult result) {
        return canonical(result, 4);
    }

    /** As above, numbers to {@code places} places. */
    static List<String> canonical(MaterializedResult result, int places) {
        List<String> rows = new ArrayList<>();
        for (MaterializedRow row : result.getMaterializedRows()) {
            rows.add(row(row.getFields(), places));
        }
        rows.sort(null);
        return rows;
    }

    /** One row as text: numbers (exact or not) to {@code places} places, everything else as it prints. */
    static String row(List<?> fields, int places) {
        List<String> out = new ArrayList<>();
        for (Object v : fields) {
            out.add(v instanceof BigDecimal d ? String.format(Locale.ROOT, "%." + places + "f", d.doubleValue())
                    : v instanceof Double d ? String.format(Locale.ROOT, "%." + places + "f", d) : String.valueOf(v));
        }
        return String.join("|", out);
    }

    /** The tpch catalog's schema of scale factor {@code sf}. */
    static String schema(double sf) {
        if (sf == 0.01) {
            return "tiny";
        }
        String text = BigDecimal.valueOf(sf).stripTrailingZeros().toPlainString();
        return "sf" + text;
    }
}
