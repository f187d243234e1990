package io.locusdb.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** BATCH frames: every type, NULL bitmaps, strings of any script, and strict decoding. */
class BatchCodecTest {
    static final List<ColumnDescription> COLUMNS = List.of(
            new ColumnDescription("b", WireType.of(WireType.BOOLEAN), true),
            new ColumnDescription("i", WireType.of(WireType.INTEGER), true),
            new ColumnDescription("l", WireType.of(WireType.BIGINT), true),
            new ColumnDescription("d", WireType.of(WireType.DOUBLE), true),
            new ColumnDescription("m", WireType.decimal(15, 2), true),
            new ColumnDescription("day", WireType.of(WireType.DATE), true),
            new ColumnDescription("s", WireType.varchar(0), true),
            new ColumnDescription("c", WireType.character(2), true));

    static final int ROWS = 19; // more than two bitmap bytes, not a multiple of 8
    static final String[] STRINGS = {"", "a", "Grüße", "東京", "🚀 rocket", "naïve café", "x".repeat(300)};

    /** Writes ROWS rows; row r is NULL in column c when (r + c) % 3 == 0, except the all-NULL / no-NULL columns. */
    static byte[] encode(int rows, boolean nullsEverywhere) {
        WireWriter w = new WireWriter(8);
        BatchEncoder.begin(w, rows);
        for (int c = 0; c < COLUMNS.size(); c++) {
            boolean[] nulls = new boolean[rows + 3];
            long[] longs = new long[rows + 3];
            double[] doubles = new double[rows + 3];
            for (int r = 0; r < rows; r++) {
                int at = r + 3; // written from offset 3 to test from/rows slicing
                nulls[at] = nullsEverywhere ? (r + c) % 3 == 0 : c == 2 && false;
                longs[at] = switch (COLUMNS.get(c).type().tag()) {
                    case WireType.BOOLEAN -> r % 2;
                    case WireType.INTEGER, WireType.DATE -> r % 2 == 0 ? -r * 1000 : Integer.MAX_VALUE - r;
                    default -> r % 2 == 0 ? Long.MIN_VALUE + r : (long) r << 40;
                };
                doubles[at] = r % 2 == 0 ? -r / 3.0 : Double.MAX_VALUE;
            }
            BatchEncoder.nulls(w, nulls, 3, rows);
            WireType type = COLUMNS.get(c).type();
            switch (type.tag()) {
                case WireType.DOUBLE -> BatchEncoder.doubles(w, doubles, nulls, 3, rows);
                case WireType.VARCHAR, WireType.CHAR -> BatchEncoder.strings(w,
                        row -> STRINGS[(row - 3) % STRINGS.length], nulls, 3, rows);
                default -> BatchEncoder.longs(w, type, longs, nulls, 3, rows);
            }
        }
        w.endFrame();
        return w.toByteArray();
    }

    static DecodedBatch decode(byte[] frame) throws Exception {
        FrameReader r = new FrameReader(new ByteArrayInputStream(frame), 1 << 20);
        assertThat(r.next()).isEqualTo(Protocol.BATCH);
        return ((Message.Batch) MessageCodec.read(Protocol.BATCH, r.reader(), COLUMNS)).batch();
    }

    @Test
    void everyTypeRoundTripsWithNullsInTheBitmap() throws Exception {
        DecodedBatch b = decode(encode(ROWS, true));
        assertThat(b.rows()).isEqualTo(ROWS);
        for (int c = 0; c < COLUMNS.size(); c++) {
            DecodedBatch.Column col = b.columns().get(c);
            assertThat(col.type()).isEqualTo(COLUMNS.get(c).type());
            for (int r = 0; r < ROWS; r++) {
                boolean isNull = (r + c) % 3 == 0;
                assertThat(col.isNull(r)).as("column %d row %d", c, r).isEqualTo(isNull);
                switch (col.type().tag()) {
                    case WireType.BOOLEAN -> assertThat(col.longs()[r]).isEqualTo(isNull ? 0 : r % 2);
                    case WireType.INTEGER, WireType.DATE -> assertThat(col.longs()[r])
                            .isEqualTo(isNull ? 0 : r % 2 == 0 ? -r * 1000 : Integer.MAX_VALUE - r);
                    case WireType.DOUBLE -> assertThat(col.doubles()[r])
                            .isEqualTo(isNull ? 0.0 : r % 2 == 0 ? -r / 3.0 : Double.MAX_VALUE);
                    case WireType.VARCHAR, WireType.CHAR -> assertThat(col.strings()[r])
                            .isEqualTo(isNull ? "" : STRINGS[r % STRINGS.length]);
                    default -> assertThat(col.longs()[r])
                            .isEqualTo(isNull ? 0 : r % 2 == 0 ? Long.MIN_VALUE + r : (long) r << 40);
                }
            }
        }
    }

    @Test
    void aBatchWithoutNullsHasNoBitmap() throws Exception {
        byte[] frame = encode(ROWS, false);
        DecodedBatch b = decode(frame);
        assertThat(b.columns()).allSatisfy(c -> assertThat(c.nulls()).isNull());
        assertThat(frame[9]).as("the first column's null flag").isZero();
    }

    @Test
    void anEmptyBatchRoundTrips() throws Exception {
        DecodedBatch b = decode(encode(0, true));
        assertThat(b.rows()).isZero();
        assertThat(b.columns()).hasSize(COLUMNS.size());
    }

    @Test
    void everyTruncationAndTrailingByteIsRefused() {
        byte[] frame = encode(5, true);
        byte[] payload = Arrays.copyOfRange(frame, 5, frame.length);
        for (int cut = 0; cut < payload.length; cut++) {
            byte[] shorter = Arrays.copyOf(payload, cut);
            assertThatThrownBy(() -> BatchDecoder.decode(new WireReader(shorter, "BATCH"), COLUMNS))
                    .as("cut at %d", cut).isInstanceOf(ProtocolException.class);
        }
        byte[] longer = Arrays.copyOf(payload, payload.length + 1);
        assertThatThrownBy(() -> BatchDecoder.decode(new WireReader(longer, "BATCH"), COLUMNS))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("trailing");
    }

    @Test
    void badFlagsBooleansAndUtf8AreRefused() {
        List<ColumnDescription> one = List.of(new ColumnDescription("b", WireType.of(WireType.BOOLEAN), true));
        assertThatThrownBy(() -> BatchDecoder.decode(new WireReader(new byte[] {0, 0, 0, 1, 2, 0}, "BATCH"), one))
                .hasMessageContaining("null flag must be 0 or 1, got 2");
        assertThatThrownBy(() -> BatchDecoder.decode(new WireReader(new byte[] {0, 0, 0, 1, 0, 5}, "BATCH"), one))
                .hasMessageContaining("boolean byte 5");
        List<ColumnDescription> s = List.of(new ColumnDescription("s", WireType.varchar(0), true));
        assertThatThrownBy(() -> BatchDecoder.decode(new WireReader(new byte[] {0, 0, 0, 1, 0, 0, 0, 0, 1,
            (byte) 0xFF}, "BATCH"), s)).hasMessageContaining("not valid UTF-8");
        assertThatThrownBy(() -> BatchDecoder.decode(new WireReader(new byte[] {0, 0, 0, 1, 0, 0x7F, (byte) 0xFF,
            (byte) 0xFF, (byte) 0xFF, 'a'}, "BATCH"), s)).hasMessageContaining("exceed the frame");
        assertThatThrownBy(() -> BatchDecoder.decode(new WireReader(new byte[] {0, 0, 0x10, 1}, "BATCH"),
                List.of())).hasMessageContaining("row count 4097 exceeds 4096");
    }

    @Test
    void aNullRowHoldsZeroOrAnEmptyStringOnTheWire() throws Exception {
        WireWriter w = new WireWriter();
        BatchEncoder.begin(w, 2);
        BatchEncoder.nulls(w, new boolean[] {true, false}, 0, 2);
        BatchEncoder.strings(w, r -> "not written", new boolean[] {true, false}, 0, 2);
        w.endFrame();
        DecodedBatch b = MessageCodec.read(Protocol.BATCH, new WireReader(w.toByteArray(), 5, w.size() - 5,
                "BATCH"), List.of(new ColumnDescription("s", WireType.varchar(0), true))) instanceof Message.Batch m
                ? m.batch() : null;
        assertThat(b.columns().getFirst().strings()).containsExactly("", "not written");
    }
}
