package io.locusdb.core.storage.type;

/** SQL types LocusDB stores, and how each is held physically. */
public enum TypeKind {
    BOOLEAN(Physical.LONG),
    INTEGER(Physical.LONG),
    BIGINT(Physical.LONG),
    DOUBLE(Physical.DOUBLE),
    /** DECIMAL(p,s): the value times 10^s, in a long (p ≤ 18). */
    DECIMAL(Physical.LONG),
    /** Days since 1970-01-01. */
    DATE(Physical.LONG),
    VARCHAR(Physical.STRING),
    CHAR(Physical.STRING),
    /**
     * TIMESTAMP (without time zone): microseconds since 1970-01-01 00:00:00, PostgreSQL's precision. Last, because
     * the log and checkpoints write a kind as its ordinal.
     */
    TIMESTAMP(Physical.LONG),
    /**
     * An interval of days and time ({@code INTERVAL DAY TO SECOND}, what {@code timestamp - timestamp} gives):
     * microseconds, a day being 24 hours. Computed with, not stored in tables.
     */
    INTERVAL_DAY_TIME(Physical.LONG),
    /** An interval of years and months ({@code INTERVAL YEAR TO MONTH}): months. Computed with, not stored. */
    INTERVAL_YEAR_MONTH(Physical.LONG),
    /**
     * TIMESTAMP WITH TIME ZONE: an instant, microseconds since 1970-01-01 00:00:00 UTC; the session's time zone
     * applies only to text and to wall-clock operations (see {@link ZonedTimestamps}). Appended: kinds are written
     * as their ordinals.
     */
    TIMESTAMP_TZ(Physical.LONG);

    /** The representation in dictionaries and row buffers. */
    public enum Physical {
        LONG, DOUBLE, STRING
    }

    private final Physical physical;

    TypeKind(Physical physical) {
        this.physical = physical;
    }

    public Physical physical() {
        return physical;
    }
}
