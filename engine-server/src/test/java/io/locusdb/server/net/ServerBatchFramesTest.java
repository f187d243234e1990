package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.protocol.BatchEncoder;
import io.locusdb.protocol.ColumnDescription;
import io.locusdb.protocol.Message;
import io.locusdb.protocol.MessageCodec;
import io.locusdb.protocol.ProtocolException;
import io.locusdb.protocol.WireReader;
import io.locusdb.protocol.WireType;
import io.locusdb.protocol.WireWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** BATCH frames are sized before they are encoded: wide rows split into frames under the limit, never one huge buffer. */
class ServerBatchFramesTest {
    static final int MAX_FRAME = 64 * 1024;

    private static ResultBatch strings(int rows, String value, ColumnType... more) {
        ColumnVector s = new ColumnVector(ColumnType.VARCHAR, rows);
        ColumnVector n = new ColumnVector(ColumnType.BIGINT, rows);
        for (int r = 0; r < rows; r++) {
            s.setString(r, value);
            n.setLong(r, r);
        }
        s.setSize(rows);
        n.setSize(rows);
        return new ResultBatch(List.of(new ResultColumn("s", ColumnType.VARCHAR), new ResultColumn("n",
                ColumnType.BIGINT)), List.of(s, n), rows);
    }

    private static final List<WireType> TYPES = List.of(WireType.varchar(0), WireType.of(WireType.BIGINT));

    @Test
    void wideRowsAreSplitAndTheBufferNeverGrowsMuchPastTheFrameLimit() {
        // 4096 rows of 16 KiB would be a 64 MiB frame if encoded whole before checking its size.
        ResultBatch batch = strings(4096, "x".repeat(16 * 1024));
        WireWriter w = new WireWriter(8192);
        int from = 0;
        int frames = 0;
        while (from < 4096) {
            int written = BatchFrames.encode(w, batch, TYPES, from, 4096 - from, MAX_FRAME);
            assertThat(written).isBetween(1, 4);
            assertThat(w.size() - 4).isLessThanOrEqualTo(MAX_FRAME);
            Message.Batch decoded = (Message.Batch) MessageCodec.read(w.array()[4], new WireReader(w.array(), 5,
                    w.size() - 5, "BATCH"), List.of(new ColumnDescription("s", TYPES.get(0), true),
                    new ColumnDescription("n", TYPES.get(1), true)));
            assertThat(decoded.batch().columns().get(1).longs()[0]).isEqualTo(from);
            from += written;
            frames++;
        }
        assertThat(frames).isGreaterThanOrEqualTo(4096 / 4);
        assertThat(w.array().length).isLessThanOrEqualTo(2 * MAX_FRAME);
    }

    @Test
    void narrowRowsFillAFrameInOneGo() {
        ResultBatch batch = strings(4096, "abc");
        WireWriter w = new WireWriter(8192);
        assertThat(BatchFrames.encode(w, batch, TYPES, 0, 4096, MAX_FRAME)).isEqualTo(4096);
        assertThat(BatchFrames.encode(w, batch, TYPES, 100, 7, MAX_FRAME)).isEqualTo(7);
        // 4096 rows of 4 + 3 + 8 bytes is ~61 KiB: one frame.
        assertThat(w.size() - 4).isLessThanOrEqualTo(MAX_FRAME);
    }

    @Test
    void multiByteStringsAreMeasuredExactlyWhenTheRoughBoundDoesNotFit() {
        // 3 bytes per UTF-16 unit would not fit; the exact UTF-8 length (2 bytes per 'ü') does.
        String value = "ü".repeat(15_000);
        assertThat(BatchEncoder.utf8Length(value)).isEqualTo(30_000);
        ResultBatch batch = strings(8, value);
        WireWriter w = new WireWriter(8192);
        assertThat(BatchFrames.encode(w, batch, TYPES, 0, 8, MAX_FRAME)).isEqualTo(2);
        assertThat(BatchEncoder.utf8Length("a\uD83D\uDE00\uD800b")).isEqualTo(1 + 4 + 1 + 1);
    }

    @Test
    void aSingleRowOverTheLimitIsAStatementErrorNamingItsSize() {
        ResultBatch batch = strings(2, "y".repeat(100_000));
        WireWriter w = new WireWriter(8192);
        assertThatThrownBy(() -> BatchFrames.encode(w, batch, TYPES, 0, 2, MAX_FRAME))
                .isInstanceOfSatisfying(ProtocolException.class,
                        e -> assertThat(e.sqlState()).isEqualTo("54000"))
                .hasMessage("a row of 100019 bytes exceeds the maximum frame size 65536");
        assertThat(w.array().length).isLessThanOrEqualTo(2 * MAX_FRAME);
    }
}
