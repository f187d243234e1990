package io.locusdb.protocol;

import java.util.ArrayList;
import java.util.List;

/** Reads a BATCH payload against the result's columns; every count is checked against the bytes present. */
public final class BatchDecoder {
    private BatchDecoder() {
    }

    public static DecodedBatch decode(WireReader r, List<ColumnDescription> columns) {
        int rows = r.u32("row count");
        // Every column costs at least one byte per row (or one flag byte when rows is 0), so a row count the
        // payload cannot hold is refused before arrays are sized by it.
        if (!columns.isEmpty() && rows > r.remaining()) {
            throw r.fail("row count " + rows + " exceeds what the frame can hold");
        }
        if (columns.isEmpty() && rows > Protocol.MAX_BATCH_ROWS) {
            throw r.fail("row count " + rows + " exceeds " + Protocol.MAX_BATCH_ROWS);
        }
        List<DecodedBatch.Column> out = new ArrayList<>(columns.size());
        for (int c = 0; c < columns.size(); c++) {
            out.add(column(r, columns.get(c).type(), rows, "column " + (c + 1)));
        }
        r.expectEnd();
        return new DecodedBatch(rows, List.copyOf(out));
    }

    private static DecodedBatch.Column column(WireReader r, WireType type, int rows, String field) {
        int flag = r.u8(field + " null flag");
        boolean[] nulls = null;
        if (flag == 1) {
            int bytes = (rows + 7) >>> 3;
            if (r.remaining() < bytes) {
                throw r.fail("truncated " + field + " null bitmap");
            }
            nulls = new boolean[rows];
            byte[] b = r.array();
            int at = r.position();
            for (int row = 0; row < rows; row++) {
                nulls[row] = (b[at + (row >>> 3)] & (1 << (row & 7))) != 0;
            }
            r.skip(bytes, field + " null bitmap");
        } else if (flag != 0) {
            throw r.fail(field + " null flag must be 0 or 1, got " + flag);
        }
        return switch (type.tag()) {
            case WireType.BOOLEAN -> {
                long[] v = new long[checkWidth(r, rows, 1, field)];
                for (int i = 0; i < rows; i++) {
                    int b = r.u8(field);
                    if (b > 1) {
                        throw r.fail(field + " row " + (i + 1) + ": boolean byte " + b);
                    }
                    v[i] = b;
                }
                yield new DecodedBatch.Column(type, nulls, v, null, null);
            }
            case WireType.INTEGER, WireType.DATE -> {
                long[] v = new long[checkWidth(r, rows, 4, field)];
                for (int i = 0; i < rows; i++) {
                    v[i] = r.i32(field);
                }
                yield new DecodedBatch.Column(type, nulls, v, null, null);
            }
            case WireType.BIGINT, WireType.DECIMAL, WireType.TIMESTAMP, WireType.INTERVAL_DAY_TIME,
                 WireType.INTERVAL_YEAR_MONTH, WireType.TIMESTAMP_TZ -> {
                long[] v = new long[checkWidth(r, rows, 8, field)];
                for (int i = 0; i < rows; i++) {
                    v[i] = r.i64(field);
                }
                yield new DecodedBatch.Column(type, nulls, v, null, null);
            }
            case WireType.DOUBLE -> {
                double[] v = new double[checkWidth(r, rows, 8, field)];
                for (int i = 0; i < rows; i++) {
                    v[i] = r.f64(field);
                }
                yield new DecodedBatch.Column(type, nulls, null, v, null);
            }
            default -> {
                int[] lengths = new int[checkWidth(r, rows, 4, field)];
                long total = 0;
                for (int i = 0; i < rows; i++) {
                    lengths[i] = r.u32(field + " string length");
                    total += lengths[i];
                }
                if (total > r.remaining()) {
                    throw r.fail(field + ": strings of " + total + " bytes exceed the frame");
                }
                String[] v = new String[rows];
                for (int i = 0; i < rows; i++) {
                    v[i] = r.utf8(r.array(), r.position(), lengths[i], field);
                    r.skip(lengths[i], field);
                }
                yield new DecodedBatch.Column(type, nulls, null, null, v);
            }
        };
    }

    private static int checkWidth(WireReader r, int rows, int width, String field) {
        if ((long) rows * width > r.remaining()) {
            throw r.fail("truncated " + field + " (" + rows + " values of " + width + " byte(s))");
        }
        return rows;
    }
}
