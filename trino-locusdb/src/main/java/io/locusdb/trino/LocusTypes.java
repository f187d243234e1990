package io.locusdb.trino;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.locusdb.protocol.DecodedBatch;
import io.trino.spi.TrinoException;
import io.trino.spi.StandardErrorCode;
import io.trino.spi.block.Bitmap;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.ByteArrayBlock;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.VariableWidthBlockBuilder;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.CharType;
import io.trino.spi.type.Chars;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.TimeZoneKey;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Arrays;
import java.util.Optional;

/**
 * LocusDB's column types as Trino's, and a received batch's columns as Trino blocks: each column's primitive array
 * is copied into the block's own array in one loop (no value boxed), strings are encoded once.
 */
final class LocusTypes {
    private LocusTypes() {
    }

    /** The Trino type of result column {@code c} (1-based) as the JDBC driver describes it. */
    static Type of(ResultSetMetaData meta, int c, String table, String server) throws SQLException {
        return switch (meta.getColumnType(c)) {
            case Types.BOOLEAN -> BooleanType.BOOLEAN;
            case Types.INTEGER -> IntegerType.INTEGER;
            case Types.BIGINT -> BigintType.BIGINT;
            case Types.DOUBLE -> DoubleType.DOUBLE;
            case Types.DECIMAL -> DecimalType.createDecimalType(meta.getPrecision(c), meta.getScale(c));
            case Types.DATE -> DateType.DATE;
            case Types.TIMESTAMP -> TimestampType.TIMESTAMP_MICROS;
            case Types.TIMESTAMP_WITH_TIMEZONE -> TimestampWithTimeZoneType.TIMESTAMP_TZ_MICROS;
            case Types.VARCHAR -> meta.getPrecision(c) <= 0 || meta.getPrecision(c) > VarcharType.MAX_LENGTH
                    ? VarcharType.VARCHAR : VarcharType.createVarcharType(meta.getPrecision(c));
            case Types.CHAR -> CharType.createCharType(meta.getPrecision(c));
            default -> throw new TrinoException(StandardErrorCode.NOT_SUPPORTED, "column " + meta.getColumnName(c)
                    + " of LocusDB table " + table + " on server " + server + " has type " + meta.getColumnTypeName(c)
                    + ", which this connector does not map");
        };
    }

    /** Column {@code column} of a batch as a block of {@code type}. */
    static Block block(Type type, DecodedBatch.Column column, int rows) {
        Optional<long[]> valid = validity(column, rows);
        if (type instanceof VarcharType || type instanceof CharType) {
            String[] strings = column.strings();
            VariableWidthBlockBuilder builder = new VariableWidthBlockBuilder(null, rows, rows * 16);
            for (int r = 0; r < rows; r++) {
                if (column.isNull(r)) {
                    builder.appendNull();
                } else {
                    Slice value = Slices.utf8Slice(strings[r]);
                    // Trino holds CHAR values without their padding.
                    builder.writeEntry(type instanceof CharType ? Chars.trimTrailingSpaces(value) : value);
                }
            }
            return builder.build();
        }
        if (type == DoubleType.DOUBLE) {
            double[] doubles = column.doubles();
            long[] bits = new long[rows];
            for (int r = 0; r < rows; r++) {
                bits[r] = Double.doubleToRawLongBits(doubles[r]);
            }
            return new LongArrayBlock(rows, valid, bits);
        }
        long[] longs = column.longs();
        if (type == TimestampWithTimeZoneType.TIMESTAMP_TZ_MICROS) {
            // Instants at UTC: Trino keeps microseconds as milliseconds plus picoseconds of the millisecond.
            BlockBuilder builder = type.createBlockBuilder(null, rows);
            for (int r = 0; r < rows; r++) {
                if (column.isNull(r)) {
                    builder.appendNull();
                } else {
                    long micros = longs[r];
                    type.writeObject(builder, LongTimestampWithTimeZone.fromEpochMillisAndFraction(
                            Math.floorDiv(micros, 1000), (int) Math.floorMod(micros, 1000) * 1_000_000, TimeZoneKey.UTC_KEY));
                }
            }
            return builder.build();
        }
        if (type == BooleanType.BOOLEAN) {
            byte[] bytes = new byte[rows];
            for (int r = 0; r < rows; r++) {
                bytes[r] = (byte) (longs[r] != 0 ? 1 : 0);
            }
            return new ByteArrayBlock(rows, valid, bytes);
        }
        if (type == IntegerType.INTEGER || type == DateType.DATE) {
            int[] ints = new int[rows];
            for (int r = 0; r < rows; r++) {
                ints[r] = (int) longs[r];
            }
            return new IntArrayBlock(rows, valid, ints);
        }
        // BIGINT, short DECIMAL (the unscaled value), TIMESTAMP(6) (microseconds): the array as it came.
        return new LongArrayBlock(rows, valid, longs.length == rows ? longs : Arrays.copyOf(longs, rows));
    }

    /** What a batch weighs as it arrived: 8 bytes per number, the UTF-16 length of each string. */
    static long bytes(DecodedBatch batch) {
        long total = 0;
        for (DecodedBatch.Column c : batch.columns()) {
            if (c.strings() != null) {
                for (int r = 0; r < batch.rows(); r++) {
                    total += c.strings()[r] == null ? 0 : c.strings()[r].length();
                }
            } else {
                total += 8L * batch.rows();
            }
        }
        return total;
    }

    /** Trino's validity bitmap (a bit set where the value is not NULL), or empty when nothing is NULL. */
    private static Optional<long[]> validity(DecodedBatch.Column column, int rows) {
        boolean[] nulls = column.nulls();
        if (nulls == null) {
            return Optional.empty();
        }
        long[] words = Bitmap.allocateWords(rows, false);
        for (int r = 0; r < rows; r++) {
            if (!nulls[r]) {
                Bitmap.set(words, 0, r);
            }
        }
        return Optional.of(words);
    }
}
