package io.locusdb.core.storage.placement;

import java.util.Locale;

/** How a table part gets to another node. */
public enum MoveStrategy {
    /**
     * Build a copy of the part on the target node, switch the table to it atomically, free the old part once no
     * query holds it. Readers never see a half-moved part; memory peaks at twice the part.
     */
    COPY,
    /**
     * Re-bind the part's segments and let the kernel migrate their pages in place ({@code move_pages}). No extra
     * memory; readers keep their addresses while pages move under them.
     */
    MIGRATE_PAGES;

    /** The name in settings and in {@code locus_placer_events}: {@code copy} or {@code migrate}. */
    public String label() {
        return this == COPY ? "copy" : "migrate";
    }

    /** {@code copy} or {@code migrate} (any case). */
    public static MoveStrategy parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (MoveStrategy s : values()) {
            if (s.label().equals(t)) {
                return s;
            }
        }
        throw new IllegalArgumentException("move strategy '" + text + "' is not one of copy, migrate");
    }
}
