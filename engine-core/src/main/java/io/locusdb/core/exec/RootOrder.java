package io.locusdb.core.exec;

import java.util.Locale;

/** Which waiting root a free worker starts, within one priority. */
public enum RootOrder {
    /** The oldest query's (then the root queued first): first come, first served. */
    OLDEST_QUERY,
    /**
     * The root whose query has the highest (waited + expected work) / expected work: short queries do not wait
     * behind long ones, and long ones are not starved.
     */
    RESPONSE_RATIO;

    /** The order named by {@code -Dlocus.root-order} ({@code oldest-query} or {@code response-ratio}, the default). */
    public static RootOrder fromSystemProperty() {
        String name = System.getProperty("locus.root-order", "response-ratio");
        try {
            return valueOf(name.trim().replace('-', '_').toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("locus.root-order must be oldest-query or response-ratio, got '"
                    + name + "'", e);
        }
    }
}
