package io.locusdb.core.storage.table;

/**
 * What a column holds in a row whose insert leaves it out: a constant ({@code value}, a physical value: Long,
 * Double or String), or the statement's time ({@link Kind#CURRENT_TIMESTAMP}, {@link Kind#CURRENT_DATE}) computed
 * when the row is written.
 */
public record ColumnDefault(Kind kind, Object value) {
    /** The forms of default LocusDB keeps. */
    public enum Kind {
        VALUE, CURRENT_TIMESTAMP, CURRENT_DATE
    }

    public ColumnDefault {
        if (kind != Kind.VALUE && value != null) {
            throw new IllegalArgumentException(kind + " takes no value");
        }
    }

    /** A constant default. */
    public static ColumnDefault of(Object physicalValue) {
        return new ColumnDefault(Kind.VALUE, physicalValue);
    }
}
