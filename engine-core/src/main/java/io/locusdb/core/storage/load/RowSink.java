package io.locusdb.core.storage.load;

import io.locusdb.core.storage.column.DoubleColumnBuilder;
import io.locusdb.core.storage.column.LongColumnBuilder;
import io.locusdb.core.storage.column.StringColumnBuilder;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.TablePartBuilder;
import io.locusdb.core.storage.type.TimeZones;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.ZonedTimestamps;
import io.locusdb.core.storage.type.ValueFormatException;
import io.locusdb.core.storage.type.ValueParser;

/** Parses text fields by column type and appends them to a part builder. */
final class RowSink {
    private final Schema schema;

    RowSink(Schema schema) {
        this.schema = schema;
    }

    /** Appends NULL for an empty field, unless the column is NOT NULL. Shared by both file parsers. */
    static void appendNull(TablePartBuilder builder, int column, ColumnDef def) {
        if (!def.nullable()) {
            throw new ValueFormatException("NULL (empty field) in NOT NULL column");
        }
        builder.column(column).appendNull();
    }

    /** Appends one field; a null or (when empty means NULL) empty field is NULL. Throws ValueFormatException. */
    void append(TablePartBuilder builder, int column, String field, boolean isNull) {
        ColumnDef def = schema.column(column);
        if (isNull) {
            appendNull(builder, column, def);
            return;
        }
        switch (def.type().kind()) {
            case BOOLEAN -> ((LongColumnBuilder) builder.column(column)).append(
                    ValueParser.parseBoolean(field) ? 1 : 0);
            case INTEGER, BIGINT -> ((LongColumnBuilder) builder.column(column)).append(
                    ValueParser.parseInteger(field, def.type()));
            case DECIMAL -> ((LongColumnBuilder) builder.column(column)).append(
                    ValueParser.parseDecimal(field, def.type()));
            case DATE -> ((LongColumnBuilder) builder.column(column)).append(ValueParser.parseDate(field));
            case TIMESTAMP -> ((LongColumnBuilder) builder.column(column)).append(Timestamps.parse(field));
            case TIMESTAMP_TZ -> ((LongColumnBuilder) builder.column(column)).append(
                    ZonedTimestamps.parse(field, TimeZones.DEFAULT));
            case DOUBLE -> ((DoubleColumnBuilder) builder.column(column)).append(ValueParser.parseDouble(field));
            case VARCHAR, CHAR -> ((StringColumnBuilder) builder.column(column)).append(
                    ValueParser.checkString(field, def.type()));
        }
    }
}
