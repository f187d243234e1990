package io.locusdb.protocol;

/** A result column as PREPARED and RESULT_HEADER describe it. */
public record ColumnDescription(String name, WireType type, boolean nullable) {
}
