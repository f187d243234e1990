package io.locusdb.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Every message survives encode → frame → decode unchanged, and a payload that is not exactly right is refused. */
class MessageCodecTest {
    static final List<ColumnDescription> COLUMNS = List.of(
            new ColumnDescription("l_orderkey", WireType.of(WireType.BIGINT), false),
            new ColumnDescription("l_extendedprice", WireType.decimal(15, 2), true),
            new ColumnDescription("größe", WireType.varchar(25), true),
            new ColumnDescription("flag", WireType.character(1), true),
            new ColumnDescription("unbounded", WireType.varchar(0), true),
            new ColumnDescription("b", WireType.of(WireType.BOOLEAN), true),
            new ColumnDescription("i", WireType.of(WireType.INTEGER), true),
            new ColumnDescription("d", WireType.of(WireType.DOUBLE), true),
            new ColumnDescription("day", WireType.of(WireType.DATE), true));

    static Stream<Message> messages() {
        return Stream.of(
                new Message.Startup("ada", "pässwörd", "", "tpch", "LocusDB JDBC 0.1.0"),
                new Message.Startup("", "", "tok-123", "", ""),
                new Message.CancelRequest(Long.MIN_VALUE, Long.MAX_VALUE),
                new Message.Prepare("SELECT '東京 🚀' FROM t WHERE a < ?"),
                new Message.Execute(7, Arrays.asList(null, true, 42, -1L << 40, 2.5, new BigDecimal("-12.50"),
                        LocalDate.of(1998, 9, 2), "Grüße", ""), 100, 2, 30_000),
                new Message.Execute(-1, List.of(), 0, 1, 0),
                new Message.Query("SELECT count(*) FROM lineitem", Integer.MAX_VALUE, 3, 0),
                new Message.Fetch(2),
                new Message.Cancel(),
                new Message.CloseResult(),
                new Message.CloseStatement(9),
                new Message.Terminate(),
                new Message.Ping(),
                new Message.Metadata(Message.Metadata.TABLES, "line%", ""),
                new Message.Metadata(Message.Metadata.COLUMNS, "lineitem", "l\\_%"),
                new Message.Ready(1, -2, "0.1.0", 16 << 20, 1024),
                new Message.Prepared(3, 2, COLUMNS),
                new Message.Prepared(4, 0, List.of()),
                new Message.ResultHeader(true, COLUMNS),
                new Message.ResultHeader(false, List.of()),
                new Message.ResultEnd(-1, 6_001_215, false),
                new Message.ResultEnd(17, 0, true),
                new Message.Error("42P01", "table \"nowhere\" does not exist", 1, 18),
                new Message.Closed(3),
                new Message.Pong(),
                new Message.Notice("57P01", "the server is shutting down"));
    }

    static Message roundTrip(Message m) throws Exception {
        WireWriter w = new WireWriter(16);
        MessageCodec.write(w, m);
        FrameReader reader = new FrameReader(new ByteArrayInputStream(w.toByteArray()), 1 << 20);
        int type = reader.next();
        assertThat(type).isEqualTo(m.type());
        return MessageCodec.read(type, reader.reader(), null);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void everyMessageRoundTrips(Message m) throws Exception {
        Message back = roundTrip(m);
        if (m instanceof Message.Startup s) {
            Message.Startup b = (Message.Startup) back;
            assertThat(List.of(b.user(), b.password(), b.token(), b.database(), b.clientName()))
                    .isEqualTo(List.of(s.user(), s.password(), s.token(), s.database(), s.clientName()));
        } else {
            assertThat(back).isEqualTo(m);
        }
    }

    /** Cutting any message's payload short at any byte is refused, never misread. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void everyTruncationIsRefused(Message m) {
        byte[] payload = payload(m);
        for (int cut = 0; cut < payload.length; cut++) {
            byte[] shorter = Arrays.copyOf(payload, cut);
            assertThatThrownBy(() -> MessageCodec.read(m.type(), new WireReader(shorter, Protocol.messageName(
                    m.type())), null)).as("cut at %d", cut).isInstanceOf(ProtocolException.class)
                    .extracting(e -> ((ProtocolException) e).sqlState()).isEqualTo("08P01");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void trailingBytesAreRefused(Message m) {
        byte[] longer = Arrays.copyOf(payload(m), payload(m).length + 1);
        assertThatThrownBy(() -> MessageCodec.read(m.type(), new WireReader(longer, Protocol.messageName(m.type())),
                null)).isInstanceOf(ProtocolException.class).hasMessageContaining("1 unexpected trailing byte");
    }

    static byte[] payload(Message m) {
        WireWriter w = new WireWriter();
        MessageCodec.write(w, m);
        byte[] frame = w.toByteArray();
        return Arrays.copyOfRange(frame, Protocol.FRAME_HEADER_BYTES, frame.length);
    }

    private static ProtocolException refusal(int type, byte[] payload) {
        try {
            MessageCodec.read(type, new WireReader(payload, Protocol.messageName(type)), COLUMNS);
        } catch (ProtocolException e) {
            return e;
        }
        throw new AssertionError("accepted " + Arrays.toString(payload));
    }

    @Test
    void unknownTagsAndOutOfRangeFieldsAreRefusedByName() {
        assertThat(refusal(0x7F, new byte[0])).hasMessageContaining("unknown message type 0x7F");
        assertThat(refusal(Protocol.RESULT_HEADER, new byte[] {2, 0, 0})).hasMessageContaining("result kind");
        assertThat(refusal(Protocol.RESULT_HEADER, new byte[] {0, 0, 1, 0, 0, 0, 1, 'x', 13, 0}))
                .hasMessageContaining("unknown type tag 13");
        assertThat(refusal(Protocol.RESULT_HEADER, new byte[] {0, 0, 1, 0, 0, 0, 1, 'x', 5, 39, 2, 0}))
                .hasMessageContaining("DECIMAL(39,2)");
        assertThat(refusal(Protocol.RESULT_HEADER, new byte[] {0, 0, 1, 0, 0, 0, 1, 'x', 5, 4, 5, 0}))
                .hasMessageContaining("DECIMAL(4,5)");
        assertThat(refusal(Protocol.RESULT_HEADER, new byte[] {0, 0, 1, 0, 0, 0, 1, 'x', 2, 2}))
                .hasMessageContaining("nullable must be 0 or 1, got 2");
        assertThat(refusal(Protocol.RESULT_END, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7}))
                .hasMessageContaining("truncated must be 0 or 1");
        assertThat(refusal(Protocol.METADATA, new byte[] {3, 0, 0, 0, 0, 0, 0, 0, 0}))
                .hasMessageContaining("what must be 1 (tables) or 2 (columns)");
        assertThat(refusal(Protocol.FETCH, new byte[] {(byte) 0x80, 0, 0, 0}))
                .hasMessageContaining("2147483648 is out of range");
        assertThat(refusal(Protocol.EXECUTE, new byte[] {0, 0, 0, 1, 0, 1, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}))
                .hasMessageContaining("parameter 1 has unknown type tag 11");
        assertThat(refusal(Protocol.EXECUTE, new byte[] {0, 0, 0, 1, 0, 1, 5, 0, 0, 0, 3, 'a', 'b', 'c', 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0})).hasMessageContaining("'abc' is not a decimal number");
        assertThat(refusal(Protocol.BATCH, new byte[] {0, 0, 0, 0})).isNotNull(); // no columns decoded: one flag each
        assertThat(refusal(Protocol.PREPARE, new byte[] {0, 0, 0, 2, (byte) 0xC3, 0x28}))
                .hasMessageContaining("sql is not valid UTF-8");
        assertThat(refusal(Protocol.PREPARE, new byte[] {0, 0, 0, 3, (byte) 0xED, (byte) 0xA0, (byte) 0x80}))
                .as("an encoded surrogate is not UTF-8").hasMessageContaining("not valid UTF-8");
    }

    @Test
    void hugeCountsAreRefusedBeforeAnythingIsAllocated() {
        // a string claiming 2^31-1 bytes in a 4-byte frame
        assertThat(refusal(Protocol.PREPARE, new byte[] {0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF}))
                .hasMessageContaining("truncated sql");
        // 65535 columns in a 2-byte payload
        assertThat(refusal(Protocol.RESULT_HEADER, new byte[] {0, (byte) 0xFF, (byte) 0xFF}))
                .hasMessageContaining("truncated");
        // 65535 parameters
        assertThat(refusal(Protocol.EXECUTE, new byte[] {0, 0, 0, 1, (byte) 0xFF, (byte) 0xFF}))
                .hasMessageContaining("truncated");
        // a batch of 2^31-1 rows
        assertThat(refusal(Protocol.BATCH, new byte[] {0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0}))
                .hasMessageContaining("exceeds what the frame can hold");
    }

    @Test
    void aBatchWithoutAnOpenResultIsAViolation() {
        assertThatThrownBy(() -> MessageCodec.read(Protocol.BATCH, new WireReader(new byte[] {0, 0, 0, 0},
                "BATCH"), null)).isInstanceOf(ProtocolException.class).hasMessageContaining("no result is open");
    }

    @Test
    void batchesAreWrittenWithTheBatchEncoderOnly() {
        WireWriter w = new WireWriter();
        assertThatThrownBy(() -> MessageCodec.write(w, new Message.Batch(new DecodedBatch(0, List.of()))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(w.size()).as("the abandoned frame leaves nothing behind").isZero();
    }

    @Test
    void unsupportedParameterTypesAreRefusedWhenWriting() {
        WireWriter w = new WireWriter();
        assertThatThrownBy(() -> MessageCodec.writeParameter(w, new Object()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not supported");
    }

    @Test
    void framesOverTheLimitOrEmptyOrCutShortAreRefused() {
        byte[] big = {0, 0, 0x10, 0, Protocol.PING};
        assertThatThrownBy(() -> new FrameReader(new ByteArrayInputStream(big), 1024).next())
                .isInstanceOf(ProtocolException.class).hasMessageContaining("frame of 4096 bytes exceeds the limit"
                        + " of 1024").extracting(e -> ((ProtocolException) e).sqlState()).isEqualTo("54000");
        byte[] empty = {0, 0, 0, 0, 0};
        assertThatThrownBy(() -> new FrameReader(new ByteArrayInputStream(empty), 1024).next())
                .isInstanceOf(ProtocolException.class).hasMessageContaining("frame length 0 is invalid");
        byte[] negative = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0};
        assertThatThrownBy(() -> new FrameReader(new ByteArrayInputStream(negative), 1024).next())
                .isInstanceOf(ProtocolException.class).hasMessageContaining("4294967295");
        byte[] cut = {0, 0, 0, 9, Protocol.QUERY, 0, 0};
        assertThatThrownBy(() -> new FrameReader(new ByteArrayInputStream(cut), 1024).next())
                .isInstanceOf(EOFException.class).hasMessageContaining("middle of a frame");
        assertThatThrownBy(() -> new FrameReader(new ByteArrayInputStream(new byte[0]), 1024).next())
                .isInstanceOf(EOFException.class).hasMessageContaining("closed the connection");
    }

    @Test
    void theFrameReaderReusesItsBufferAcrossFramesOfDifferentSizes() throws Exception {
        WireWriter w = new WireWriter();
        MessageCodec.write(w, new Message.Prepare("x".repeat(20_000)));
        MessageCodec.write(w, new Message.Ping());
        MessageCodec.write(w, new Message.Prepare("short"));
        FrameReader r = new FrameReader(new ByteArrayInputStream(w.toByteArray()), 1 << 20);
        assertThat(((Message.Prepare) MessageCodec.read(r.next(), r.reader(), null)).sql()).hasSize(20_000);
        assertThat(MessageCodec.read(r.next(), r.reader(), null)).isEqualTo(new Message.Ping());
        assertThat(MessageCodec.read(r.next(), r.reader(), null)).isEqualTo(new Message.Prepare("short"));
    }

    @Test
    void thePreambleStartsWithTheVersionAndIsChecked() {
        byte[] p = Protocol.preamble();
        assertThat(p).hasSize(8);
        assertThat(p[0]).isEqualTo((byte) 1);
        assertThat(new String(p, 1, 7, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("LOCUSDB");
        Protocol.checkPreamble(p);
        byte[] v2 = p.clone();
        v2[0] = 2;
        assertThatThrownBy(() -> Protocol.checkPreamble(v2)).hasMessageContaining("protocol version 2 is not"
                + " supported");
        byte[] http = "GET / HT".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> Protocol.checkPreamble(http)).hasMessageContaining("LOCUSDB magic");
        assertThatThrownBy(() -> Protocol.checkPreamble(new byte[3])).hasMessageContaining("8 bytes");
    }

    @Test
    void passwordsAndTokensNeverAppearInToString() {
        assertThat(new Message.Startup("ada", "s3cret", "t0ken", "db", "c").toString())
                .doesNotContain("s3cret").doesNotContain("t0ken").contains("ada");
    }

    @Test
    void writersRefuseValuesOutsideTheProtocolsRanges() {
        WireWriter w = new WireWriter();
        assertThatThrownBy(() -> w.putU16(70_000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> w.putU32(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> w.putU32(1L << 31)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(w::endFrame).isInstanceOf(IllegalStateException.class);
    }
}
