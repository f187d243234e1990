package io.locusdb.core.storage.load;

import io.locusdb.core.storage.column.DoubleColumnBuilder;
import io.locusdb.core.storage.column.LongColumnBuilder;
import io.locusdb.core.storage.column.StringColumnBuilder;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.PartitionRouter;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.TablePartBuilder;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TimeZones;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.ZonedTimestamps;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.core.storage.type.ValueFormatException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses one newline-aligned byte range of a memory-mapped delimited file into part builders (one per part, or a
 * single one when parts are decided later). Several run in parallel over disjoint ranges. Stops at its first bad
 * row and remembers where; the loader reports the earliest failure in file order.
 */
final class MappedChunkParser {
    private static final ValueLayout.OfLong LONG_LE =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = SwarBytes.broadcast((byte) '\n');

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
    private static final long HIGH_BITS = 0x8080808080808080L;
    private final long fileSize;
    private final long[] fieldStart;
    private final long[] fieldEnd;
    private boolean header;
    private final long delimiters;
    // Per column, looked up once instead of through the schema for every field.
    private final ColumnDef[] defs;
    private final ColumnType[] types;
    private final TypeKind[] kinds;
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
        this.fileSize = file.byteSize();
        this.delimiters = SwarBytes.broadcast((byte) format.delimiter());
        this.fieldStart = new long[schema.size()];
        this.fieldEnd = new long[schema.size()];
        this.defs = new ColumnDef[schema.size()];
        this.types = new ColumnType[schema.size()];
        this.kinds = new TypeKind[schema.size()];
        for (int c = 0; c < defs.length; c++) {
            defs[c] = schema.column(c);
            types[c] = defs[c].type();
            kinds[c] = types[c].kind();
        }
        for (int p = 0; p < stagingParts; p++) {
            builders.add(new TablePartBuilder(schema));
        }
    }

    /**
     * Parses the lines of {@code [start, end)}. One pass over the bytes, eight at a time: each word yields the
     * positions of its delimiters and newlines, which close fields and lines; words read past a line count for
     * both lines, so its "plain ASCII" verdict stays on the safe side.
     */
    void parse(long start, long end, boolean skipHeader) {
        header = skipHeader;
        byte quote = (byte) format.quote();
        long lineStart = start;
        long f = start;
        int count = 0;
        long unusual = 0;
        for (long i = start; i < end; i += Long.BYTES) {
            long delimiterBits;
            long newlineBits;
            long wordUnusual;
            if (i + Long.BYTES <= fileSize) {
                long word = file.get(LONG_LE, i);
                wordUnusual = (word & HIGH_BITS) | SwarBytes.zeroBytes(word);
                delimiterBits = SwarBytes.equalBytes(word, delimiters);
                newlineBits = SwarBytes.equalBytes(word, NEWLINES);
                if (end - i < Long.BYTES) {
                    long inside = (1L << ((end - i) << 3)) - 1; // stops past the chunk belong to the next one
                    delimiterBits &= inside;
                    newlineBits &= inside;
                }
            } else {
                // The file's last bytes, fewer than a word: looked at one by one, strings check themselves.
                wordUnusual = -1;
                delimiterBits = 0;
                newlineBits = 0;
                for (int b = 0; i + b < end; b++) {
                    byte value = file.get(ValueLayout.JAVA_BYTE, i + b);
                    if (value == '\n') {
                        newlineBits |= 0x80L << (b << 3);
                    } else if (value == (byte) format.delimiter()) {
                        delimiterBits |= 0x80L << (b << 3);
                    }
                }
            }
            unusual |= wordUnusual;
            long stops = delimiterBits | newlineBits;
            while (stops != 0) {
                int bit = Long.numberOfTrailingZeros(stops);
                long stop = i + (bit >>> 3);
                stops &= stops - 1;
                if (quote != 0 && f < stop && file.get(ValueLayout.JAVA_BYTE, f) == quote) {
                    throw new QuotedFieldFound();
                }
                if ((newlineBits & (1L << bit)) == 0) {
                    if (count < fieldStart.length) {
                        fieldStart[count] = f;
                        fieldEnd[count] = stop;
                    }
                    count++;
                    f = stop + 1;
                    continue;
                }
                if (!endLine(lineStart, stop, f, count, unusual == 0)) {
                    return;
                }
                lineStart = stop + 1;
                f = lineStart;
                count = 0;
                unusual = wordUnusual; // the rest of this word is the next line's
            }
        }
        if (lineStart < end) {
            // f == end when the last field is empty ("1," at the end of the file).
            if (quote != 0 && f < end && file.get(ValueLayout.JAVA_BYTE, f) == quote) {
                throw new QuotedFieldFound();
            }
            endLine(lineStart, end, f, count, false); // the last line of the file, without a newline
        }
    }

    /**
     * Checks and appends a line whose fields before {@code lastField} are in {@link #fieldStart}/{@link #fieldEnd};
     * false if it is bad (the failure is recorded) and parsing stops.
     */
    private boolean endLine(long lineStart, long lineEnd, long lastField, int count, boolean plainAscii) {
        int columns = fieldStart.length;
        long contentEnd = lineEnd;
        if (contentEnd > lineStart && file.get(ValueLayout.JAVA_BYTE, contentEnd - 1) == '\r') {
            contentEnd--;
        }
        if (contentEnd == lineStart) {
            return true;
        }
        if (format.trailingDelimiter()) {
            if (lastField != contentEnd) {
                int found = count + 1;
                fail(lineStart, null, found == columns
                        ? "line does not end with '" + format.delimiter() + "' (truncated line?)"
                        : "expected " + columns + " fields, found " + found
                                + (found < columns ? " (truncated line?)" : ""));
                return false;
            }
        } else {
            if (count < columns) {
                fieldStart[count] = lastField;
                fieldEnd[count] = contentEnd;
            }
            count++;
        }
        if (count != columns) {
            fail(lineStart, null, "expected " + columns + " fields, found " + count
                    + (count < columns ? " (truncated line?)" : ""));
            return false;
        }
        if (header) {
            header = false;
            return true;
        }
        if (!append(lineStart, fieldStart, fieldEnd, plainAscii)) {
            return false;
        }
        rows++;
        return true;
    }

    private boolean append(long lineStart, long[] fieldStart, long[] fieldEnd, boolean plainAscii) {
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
                appendField(builder, column, fieldStart[column], fieldEnd[column], plainAscii);
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
            case TIMESTAMP -> Timestamps.parse(ByteFieldParser.text(file, from, to));
            case TIMESTAMP_TZ -> ZonedTimestamps.parse(ByteFieldParser.text(file, from, to), TimeZones.DEFAULT);
            case DOUBLE -> ByteFieldParser.parseDouble(file, from, to);
            case VARCHAR, CHAR -> ByteFieldParser.text(file, from, to);
            case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> throw new IllegalStateException(
                    "no table has an INTERVAL column");
        };
    }

    private void appendField(TablePartBuilder builder, int column, long from, long to, boolean plainAscii) {
        if (from == to && format.emptyIsNull()) {
            RowSink.appendNull(builder, column, defs[column]);
            return;
        }
        ColumnType type = types[column];
        switch (kinds[column]) {
            case BOOLEAN -> ((LongColumnBuilder) builder.column(column)).append(
                    ByteFieldParser.parseBoolean(file, from, to) ? 1 : 0);
            case INTEGER, BIGINT -> ((LongColumnBuilder) builder.column(column)).append(
                    ByteFieldParser.parseInteger(file, from, to, type));
            case DECIMAL -> ((LongColumnBuilder) builder.column(column)).append(
                    ByteFieldParser.parseDecimal(file, from, to, type));
            case DATE -> ((LongColumnBuilder) builder.column(column)).append(
                    ByteFieldParser.parseDate(file, from, to));
            case TIMESTAMP -> ((LongColumnBuilder) builder.column(column)).append(
                    Timestamps.parse(ByteFieldParser.text(file, from, to)));
            // Files are read at UTC where a time has no offset: a load has no session zone.
            case TIMESTAMP_TZ -> ((LongColumnBuilder) builder.column(column)).append(
                    ZonedTimestamps.parse(ByteFieldParser.text(file, from, to), TimeZones.DEFAULT));
            case DOUBLE -> ((DoubleColumnBuilder) builder.column(column)).append(
                    ByteFieldParser.parseDouble(file, from, to));
            case VARCHAR, CHAR -> ((StringColumnBuilder) builder.column(column)).appendUtf8(file, from,
                    ByteFieldParser.checkString(file, from, to, type, plainAscii) - from);
        }
    }

    private void fail(long lineStart, String column, String reason) {
        failure = new Failure(lineStart, column, reason);
    }
}
