package io.locusdb.protocol;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads one frame's payload with every length checked against what is left, so a hostile or truncated frame ends
 * in a {@link ProtocolException} naming the message and the field, never in an over-read or a huge allocation.
 */
public final class WireReader {
    private final byte[] bytes;
    private final int end;
    private final String message;
    private int position;

    public WireReader(byte[] bytes, int offset, int length, String message) {
        if (offset < 0 || length < 0 || offset + length > bytes.length) {
            throw new IllegalArgumentException("slice out of bounds");
        }
        this.bytes = bytes;
        this.position = offset;
        this.end = offset + length;
        this.message = message;
    }

    public WireReader(byte[] bytes, String message) {
        this(bytes, 0, bytes.length, message);
    }

    public int remaining() {
        return end - position;
    }

    public int position() {
        return position;
    }

    public byte[] array() {
        return bytes;
    }

    /** Every payload must be consumed exactly: bytes left over are as wrong as bytes missing. */
    public void expectEnd() {
        if (position != end) {
            throw fail((end - position) + " unexpected trailing byte(s)");
        }
    }

    public ProtocolException fail(String problem) {
        return ProtocolException.malformed(message + ": " + problem);
    }

    private void need(int count, String field) {
        if (count < 0 || end - position < count) {
            throw fail("truncated " + field + " (needs " + count + " byte(s), " + (end - position) + " left)");
        }
    }

    public int u8(String field) {
        need(1, field);
        return bytes[position++] & 0xFF;
    }

    public boolean bool(String field) {
        int v = u8(field);
        if (v > 1) {
            throw fail(field + " must be 0 or 1, got " + v);
        }
        return v == 1;
    }

    public int u16(String field) {
        need(2, field);
        int v = ((bytes[position] & 0xFF) << 8) | (bytes[position + 1] & 0xFF);
        position += 2;
        return v;
    }

    public int i32(String field) {
        need(4, field);
        int v = readIntAt(bytes, position);
        position += 4;
        return v;
    }

    public int u32(String field) {
        int v = i32(field);
        if (v < 0) {
            throw fail(field + " " + Integer.toUnsignedString(v) + " is out of range (max " + Integer.MAX_VALUE + ")");
        }
        return v;
    }

    public long i64(String field) {
        need(8, field);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (bytes[position + i] & 0xFF);
        }
        position += 8;
        return v;
    }

    public double f64(String field) {
        return Double.longBitsToDouble(i64(field));
    }

    /** A UTF-8 string; the length is checked against the frame before anything is allocated. */
    public String string(String field) {
        int length = u32(field + " length");
        need(length, field);
        String s = utf8(bytes, position, length, field);
        position += length;
        return s;
    }

    public void skip(int count, String field) {
        need(count, field);
        position += count;
    }

    public WireType type(String field) {
        int tag = u8(field + " type");
        return switch (tag) {
            case WireType.DECIMAL -> {
                int precision = u8(field + " precision");
                int scale = u8(field + " scale");
                try {
                    yield WireType.decimal(precision, scale);
                } catch (ProtocolException e) {
                    throw fail(field + ": " + e.getMessage());
                }
            }
            case WireType.VARCHAR -> WireType.varchar(u32(field + " length"));
            case WireType.CHAR -> WireType.character(u32(field + " length"));
            case WireType.BOOLEAN, WireType.INTEGER, WireType.BIGINT, WireType.DOUBLE, WireType.DATE,
                 WireType.TIMESTAMP, WireType.INTERVAL_DAY_TIME, WireType.INTERVAL_YEAR_MONTH, WireType.TIMESTAMP_TZ ->
                    WireType.of(tag);
            default -> throw fail(field + " has unknown type tag " + tag);
        };
    }

    public ColumnDescription column(String field) {
        String name = string(field + " name");
        WireType type = type(field);
        boolean nullable = bool(field + " nullable");
        return new ColumnDescription(name, type, nullable);
    }

    String utf8(byte[] source, int offset, int length, String field) {
        boolean ascii = true;
        for (int i = offset; i < offset + length; i++) {
            if (source[i] < 0) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            return new String(source, offset, length, StandardCharsets.ISO_8859_1);
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            CharBuffer chars = decoder.decode(ByteBuffer.wrap(source, offset, length));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw fail(field + " is not valid UTF-8");
        }
    }

    static int readIntAt(byte[] b, int at) {
        return ((b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
    }
}
