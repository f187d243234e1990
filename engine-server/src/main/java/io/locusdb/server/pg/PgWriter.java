package io.locusdb.server.pg;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Writes backend messages into a Netty buffer: each message is its type byte, a length patched in when the message
 * ends, and its fields. Several messages go into one buffer so that a result's rows leave in few writes.
 */
public final class PgWriter {
    /** ErrorResponse and NoticeResponse field codes. */
    public static final byte SEVERITY = 'S';
    public static final byte SEVERITY_NONLOCALIZED = 'V';
    public static final byte CODE = 'C';
    public static final byte MESSAGE = 'M';
    public static final byte DETAIL = 'D';
    public static final byte HINT = 'H';
    public static final byte POSITION = 'P';

    private final ByteBuf buf;
    private int messageStart = -1;

    public PgWriter(ByteBuf buf) {
        this.buf = buf;
    }

    public ByteBuf buffer() {
        return buf;
    }

    public int size() {
        return buf.readableBytes();
    }

    public PgWriter begin(char type) {
        if (messageStart >= 0) {
            throw new IllegalStateException("message '" + (char) buf.getByte(messageStart) + "' not ended");
        }
        messageStart = buf.writerIndex();
        buf.writeByte(type);
        buf.writeInt(0);
        return this;
    }

    public PgWriter end() {
        buf.setInt(messageStart + 1, buf.writerIndex() - messageStart - 1);
        messageStart = -1;
        return this;
    }

    public PgWriter int8(int v) {
        buf.writeByte(v);
        return this;
    }

    public PgWriter int16(int v) {
        buf.writeShort(v);
        return this;
    }

    public PgWriter int32(int v) {
        buf.writeInt(v);
        return this;
    }

    public PgWriter int64(long v) {
        buf.writeLong(v);
        return this;
    }

    public PgWriter bytes(byte[] v) {
        buf.writeBytes(v);
        return this;
    }

    /** A zero-terminated UTF-8 string. */
    public PgWriter cString(String s) {
        buf.writeCharSequence(s, StandardCharsets.UTF_8);
        buf.writeByte(0);
        return this;
    }

    /** A length-prefixed UTF-8 value of a DataRow. */
    public PgWriter text(CharSequence s) {
        int at = buf.writerIndex();
        buf.writeInt(0);
        int n = buf.writeCharSequence(s, StandardCharsets.UTF_8);
        buf.setInt(at, n);
        return this;
    }

    /** Reserves a 4-byte length at the current position; {@link #patchLength} fills it in. */
    public int reserveLength() {
        int at = buf.writerIndex();
        buf.writeInt(0);
        return at;
    }

    public void patchLength(int at) {
        buf.setInt(at, buf.writerIndex() - at - 4);
    }

    // ---- whole messages

    public PgWriter authentication(int code) {
        return begin('R').int32(code).end();
    }

    public PgWriter authenticationSasl(List<String> mechanisms) {
        begin('R').int32(10);
        for (String m : mechanisms) {
            cString(m);
        }
        return int8(0).end();
    }

    public PgWriter authenticationSasl(int code, byte[] data) {
        return begin('R').int32(code).bytes(data).end();
    }

    public PgWriter parameterStatus(String name, String value) {
        return begin('S').cString(name).cString(value).end();
    }

    public PgWriter backendKeyData(int processId, int secretKey) {
        return begin('K').int32(processId).int32(secretKey).end();
    }

    public PgWriter negotiateProtocolVersion(int newestMinor, List<String> unrecognized) {
        begin('v').int32(newestMinor).int32(unrecognized.size());
        for (String option : unrecognized) {
            cString(option);
        }
        return end();
    }

    /** ReadyForQuery: 'I' idle, 'T' in a transaction block, 'E' in a failed transaction block. */
    public PgWriter readyForQuery(char status) {
        return begin('Z').int8(status).end();
    }

    public PgWriter commandComplete(String tag) {
        return begin('C').cString(tag).end();
    }

    public PgWriter emptyQueryResponse() {
        return begin('I').end();
    }

    public PgWriter parseComplete() {
        return begin('1').end();
    }

    public PgWriter bindComplete() {
        return begin('2').end();
    }

    public PgWriter closeComplete() {
        return begin('3').end();
    }

    public PgWriter noData() {
        return begin('n').end();
    }

    public PgWriter portalSuspended() {
        return begin('s').end();
    }

    public PgWriter parameterDescription(int[] oids) {
        begin('t').int16(oids.length);
        for (int oid : oids) {
            int32(oid);
        }
        return end();
    }

    /** ErrorResponse ('E') or NoticeResponse ('N'): severity, code, message and optional further fields. */
    public PgWriter report(char type, String severity, String sqlState, String message, Map<Byte, String> more) {
        begin(type);
        int8(SEVERITY).cString(severity);
        int8(SEVERITY_NONLOCALIZED).cString(severity);
        int8(CODE).cString(sqlState);
        int8(MESSAGE).cString(message);
        more.forEach((code, value) -> int8(code).cString(value));
        return int8(0).end();
    }

    public PgWriter copyOutResponse(boolean binary, int columns) {
        return copyResponse('H', binary, columns);
    }

    public PgWriter copyInResponse(boolean binary, int columns) {
        return copyResponse('G', binary, columns);
    }

    private PgWriter copyResponse(char type, boolean binary, int columns) {
        begin(type).int8(binary ? 1 : 0).int16(columns);
        for (int i = 0; i < columns; i++) {
            int16(binary ? 1 : 0);
        }
        return end();
    }

    public PgWriter copyDone() {
        return begin('c').end();
    }
}
