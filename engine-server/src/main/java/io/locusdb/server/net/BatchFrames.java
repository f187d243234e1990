package io.locusdb.server.net;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.protocol.BatchEncoder;
import io.locusdb.protocol.Protocol;
import io.locusdb.protocol.ProtocolException;
import io.locusdb.protocol.WireType;
import io.locusdb.protocol.WireWriter;
import java.util.List;

/**
 * Encodes rows of an engine batch as one BATCH frame straight from its column vectors. How many rows fit the peer's
 * frame limit is worked out before anything is encoded (fixed-width columns by arithmetic, strings row by row from
 * their lengths), so the frame buffer never grows much past the limit however wide the rows are; a single row that
 * does not fit is an error (54000) for the statement.
 */
final class BatchFrames {
    /** Frame type and row count. */
    private static final int FRAME_HEADER = 1 + 4;

    private BatchFrames() {
    }

    /** Encodes up to {@code rows} rows from {@code from} into {@code w} (cleared first); returns the rows written. */
    static int encode(WireWriter w, ResultBatch batch, List<WireType> types, int from, int rows, int maxFrameBytes) {
        int count = rowsThatFit(batch, types, from, Math.min(rows, Protocol.MAX_BATCH_ROWS), maxFrameBytes);
        while (true) {
            w.clear();
            BatchEncoder.begin(w, count);
            for (int c = 0; c < types.size(); c++) {
                column(w, batch.vector(c), types.get(c), from, count);
            }
            if (w.frameSize() - 4 <= maxFrameBytes) {
                w.endFrame();
                return count;
            }
            // Not reached when the sizing above is right; kept so that a mistake there costs speed, not a frame.
            int size = w.frameSize() - 4;
            w.abandonFrame();
            if (count == 1) {
                throw rowTooLarge(size, maxFrameBytes);
            }
            count = (count + 1) / 2;
        }
    }

    /**
     * The most rows from {@code from} (at least 1, at most {@code rows}) whose frame stays within the limit; a
     * first row that alone exceeds it is refused. Sizes are upper bounds: a null bitmap for every column, and for
     * strings first 3 bytes per UTF-16 unit, then their exact UTF-8 length when that bound does not fit.
     */
    static int rowsThatFit(ResultBatch batch, List<WireType> types, int from, int rows, int maxFrameBytes) {
        long overhead = FRAME_HEADER + (long) types.size() * (1 + ((rows + 7) >>> 3));
        long fixedWidth = 0;
        int stringColumns = 0;
        for (WireType type : types) {
            int width = width(type);
            fixedWidth += width;
            if (isString(type)) {
                stringColumns++;
            }
        }
        if (stringColumns == 0) {
            long room = maxFrameBytes - overhead;
            long fit = fixedWidth == 0 ? rows : room / fixedWidth;
            if (fit < 1) {
                throw rowTooLarge(overhead + fixedWidth, maxFrameBytes);
            }
            return (int) Math.min(rows, fit);
        }
        ColumnVector[] strings = new ColumnVector[stringColumns];
        boolean[][] nulls = new boolean[stringColumns][];
        for (int c = 0, s = 0; c < types.size(); c++) {
            if (isString(types.get(c))) {
                strings[s] = batch.vector(c);
                nulls[s] = strings[s].anyNull() ? strings[s].nulls() : null;
                s++;
            }
        }
        // Cheap first: 3 bytes per UTF-16 unit bounds the UTF-8 length; most batches fit by that bound.
        long rough = overhead;
        for (int r = 0; r < rows && rough <= maxFrameBytes; r++) {
            rough += fixedWidth;
            for (int s = 0; s < stringColumns; s++) {
                String v = isNull(nulls[s], from + r) ? null : strings[s].string(from + r);
                rough += v == null ? 0 : 3L * v.length();
            }
        }
        if (rough <= maxFrameBytes) {
            return rows;
        }
        // Exact UTF-8 lengths, row by row, up to the limit: at most about one frame's worth of characters is read.
        long total = overhead;
        for (int r = 0; r < rows; r++) {
            long bytes = fixedWidth;
            for (int s = 0; s < stringColumns; s++) {
                String v = isNull(nulls[s], from + r) ? null : strings[s].string(from + r);
                bytes += v == null ? 0 : BatchEncoder.utf8Length(v);
            }
            if (total + bytes > maxFrameBytes) {
                if (r == 0) {
                    throw rowTooLarge(FRAME_HEADER + types.size() + bytes, maxFrameBytes);
                }
                return r;
            }
            total += bytes;
        }
        return rows;
    }

    private static ProtocolException rowTooLarge(long bytes, int maxFrameBytes) {
        return new ProtocolException(ProtocolException.LIMIT_EXCEEDED, "a row of " + bytes
                + " bytes exceeds the maximum frame size " + maxFrameBytes);
    }

    /** Bytes a value takes in a batch; strings: their u32 length (the bytes come on top). */
    private static int width(WireType type) {
        return switch (type.tag()) {
            case WireType.BOOLEAN -> 1;
            case WireType.INTEGER, WireType.DATE, WireType.VARCHAR, WireType.CHAR -> 4;
            default -> 8;
        };
    }

    private static boolean isString(WireType type) {
        return type.tag() == WireType.VARCHAR || type.tag() == WireType.CHAR;
    }

    private static boolean isNull(boolean[] nulls, int row) {
        return nulls != null && nulls[row];
    }

    private static void column(WireWriter w, ColumnVector v, WireType type, int from, int rows) {
        // nulls() may hold stale flags when the vector says it has none.
        boolean[] nulls = v.anyNull() ? v.nulls() : null;
        BatchEncoder.nulls(w, nulls, from, rows);
        switch (type.tag()) {
            case WireType.DOUBLE -> BatchEncoder.doubles(w, v.doubles(), nulls, from, rows);
            case WireType.VARCHAR, WireType.CHAR -> BatchEncoder.strings(w, v::string, nulls, from, rows);
            default -> BatchEncoder.longs(w, type, v.longs(), nulls, from, rows);
        }
    }
}
