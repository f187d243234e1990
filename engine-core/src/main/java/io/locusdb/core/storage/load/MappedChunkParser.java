package io.locusdb.core.storage.load;

import io.locusdb.core.storage.column.DoubleColumnBuilder;
import io.locusdb.core.storage.column.LongColumnBuilder;
import io.locusdb.core.storage.column.StringColumnBuilder;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.TablePartBuilder;
import io.locusdb.core.storage.type.ValueFormatException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses one newline-aligned byte range of a memory-mapped delimited file into part builders (one per part, or a
 * single one when parts are decided later). Several run in parallel over disjoint ranges. Stops at its first bad
 * row and remembers where; the loader reports the earliest failure in file order.
 */
final class MappedChunkParser {
    /** The first bad row of a chunk: byte offset of its line, column (or null) and reason. */
    record Failure(long lineOffset, String column, String reason) {
    }

    /** Thrown when the chunk holds a quoted field: the loader falls back to the serial, quote-aware parser. */
    static final class QuotedFieldFound extends RuntimeException {
        QuotedFieldFound() {
            super(null, null, false, false);
        }
    }

    private final MemorySegment file;
    private final Schema schema;
    private final PartitionSpec spec;
    private final DelimitedFormat format;
    private final int keyColumn;
    final List<TablePartBuilder> builders = new ArrayList<>();
    Failure failure;
    long rows;

    MappedChunkParser(MemorySegment file, Schema schema, PartitionSpec spec, DelimitedFormat format,
                      int stagingParts, int keyColumn) {
        this.file = file;
        this.schema = schema;
        this.spec = spec;
        this.format = format;
        this.keyColumn = keyColumn;
        for (int p = 0; p < stagingParts; p++) {
            builders.add(new TablePartBuilder(schema));
        }
    }

    void parse(long start, long end, boolean skipHeader) {
        int columns = schema.size();
        long[] fieldStart = new long[columns];
        long[] fieldEnd = new long[columns];
        byte delimiter = (byte) format.delimiter();
        byte quote = (byte) format.quote();
        long pos = start;
        boolean header = skipHeader;
        while (pos < end) {
            long lineStart = pos;
            long lineEnd = pos;
            while (lineEnd < end && file.get(ValueLayout.JAVA_BYTE, lineEnd) != '\n') {
                lineEnd++;
            }
            pos = lineEnd + 1;
            long contentEnd = lineEnd;
            if (contentEnd > lineStart && file.get(ValueLayout.JAVA_BYTE, contentEnd - 1) == '\r') {
                contentEnd--;
            }
            if (contentEnd == lineStart) {
                continue;
            }
            // Split the line into fields.
            int count = 0;
            long f = lineStart;
            long i = lineStart;
            boolean extra = false;
            for (; i < contentEnd; i++) {
                byte b = file.get(ValueLayout.JAVA_BYTE, i);
                if (b == delimiter) {
                    if (count < columns) {
                        fieldStart[count] = f;
                        fieldEnd[count] = i;
                    }
                    count++;
                    f = i + 1;
                } else if (quote != 0 && b == quote && i == f) {
                    throw new QuotedFieldFound();
                }
            }
            if (format.trailingDelimiter()) {
                if (f != contentEnd) {
                    int found = count + 1;
                    fail(lineStart, null, found == columns
                            ? "line does not end with '" + format.delimiter() + "' (truncated line?)"
                            : "expected " + columns + " fields, found " + found
                                    + (found < columns ? " (truncated line?)" : ""));
                    return;
                }
            } else {
                if (count < columns) {
                    fieldStart[count] = f;
                    fieldEnd[count] = contentEnd;
                }
                count++;
            }
            if (count != columns) {
                fail(lineStart, null, "expected " + columns + " fields, found " + count
                        + (count < columns ? " (truncated line?)" : ""));
                return;
            }
            if (header) {
                header = false;
                continue;
            }
            if (!append(lineStart, fieldStart, fieldEnd)) {
                return;
            }
            rows++;
        }
    }

    private boolean append(long lineStart, long[] fieldStart, long[] fieldEnd) {
        int part = 0;
        int column = -1;
        try {
            if (spec instanceof PartitionSpec.Hash hash) {
                column = keyColumn;
                part = PartitionRouter.hashPart(key(fieldStart[keyColumn], fieldEnd[keyColumn]), hash);
            } else if (spec instanceof PartitionSpec.RoundRobin rr && builders.size() > 1) {
                part = (int) (rows % rr.parts());
            }
            TablePartBuilder builder = builders.get(part);
            for (column = 0; column < fieldStart.length; column++) {
                appendField(builder, column, fieldStart[column], fieldEnd[column]);
            }
            return true;
        } catch (ValueFormatException e) {
            fail(lineStart, DelimitedFileLoader.columnName(schema, column), e.getMessage());
            return false;
        }
    }

    private Object key(long from, long to) {
        if (from == to && format.emptyIsNull()) {
            return null;
        }
        ColumnDef def = schema.column(keyColumn);
        return switch (def.type().kind()) {
            case BOOLEAN -> ByteFieldParser.parseBoolean(file, from, to) ? 1L : 0L;
            case INTEGER, BIGINT -> ByteFieldParser.parseInteger(file, from, to, def.type());
            case DECIMAL -> ByteFieldParser.parseDecimal(file, from, to, def.type());
            case DATE -> ByteFieldParser.parseDate(file, from, to);
            case DOUBLE -> ByteFieldParser.parseDouble(file, from, to);
            case VARCHAR, CHAR -> ByteFieldParser.text(file, from, to);
        };
    }

    private void appendField(TablePartBuilder builder, int column, long from, long to) {
        ColumnDef def = schema.column(column);
        if (from == to && format.emptyIsNull()) {
            RowSink.appendNull(builder, column, def);
            return;
        }
        switch (def.type().kind()) {
            case BOOLEAN -> ((LongColumnBuilder) builder.column(column)).append(
                    ByteFieldParser.parseBoolean(file, from, to) ? 1 : 0);
            case INTEGER, BIGINT -> ((LongColumnBuilder) builder.column(column)).append(
                    ByteFieldParser.parseInteger(file, from, to, def.type()));
            case DECIMAL -> ((LongColumnBuilder) builder.column(column)).append(
                    ByteFieldParser.parseDecimal(file, from, to, def.type()));
            case DATE -> ((LongColumnBuilder) builder.column(column)).append(
                    ByteFieldParser.parseDate(file, from, to));
            case DOUBLE -> ((DoubleColumnBuilder) builder.column(column)).append(
                    ByteFieldParser.parseDouble(file, from, to));
            case VARCHAR, CHAR -> ((StringColumnBuilder) builder.column(column)).appendUtf8(
                    ByteFieldParser.checkString(file, from, to, def.type()));
        }
    }

    private void fail(long lineStart, String column, String reason) {
        failure = new Failure(lineStart, column, reason);
    }
}
