package io.locusdb.server.net;

import io.locusdb.core.query.ColumnVector;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.protocol.BatchEncoder;
import io.locusdb.protocol.Protocol;
import io.locusdb.protocol.ProtocolException;
import io.locusdb.protocol.WireType;
import io.locusdb.protocol.WireWriter;
import java.util.List;

/**
 * Encodes rows of an engine batch as one BATCH frame straight from its column vectors. A frame that would exceed the
 * peer's frame limit is re-encoded with half the rows, so wide rows still stream; a single row that does not fit is
 * an error (54000) for the statement.
 */
final class BatchFrames {
    private BatchFrames() {
    }

    /** Encodes up to {@code rows} rows from {@code from} into {@code w} (cleared first); returns the rows written. */
    static int encode(WireWriter w, ResultBatch batch, List<WireType> types, int from, int rows, int maxFrameBytes) {
        int count = Math.min(rows, Protocol.MAX_BATCH_ROWS);
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
            int size = w.frameSize() - 4;
            w.abandonFrame();
            if (count == 1) {
                throw new ProtocolException(ProtocolException.LIMIT_EXCEEDED, "a result row of " + size
                        + " bytes exceeds the frame limit of " + maxFrameBytes);
            }
            count = (count + 1) / 2;
        }
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
