package io.locusdb.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds frames into one growable byte array, reused from frame to frame (no per-field allocation). Values are
 * big-endian. {@link #beginFrame} reserves the length, {@link #endFrame} fills it in.
 */
public final class WireWriter {
    private byte[] buffer;
    private int size;
    private int frameStart = -1;

    public WireWriter() {
        this(256);
    }

    public WireWriter(int initialCapacity) {
        buffer = new byte[Math.max(16, initialCapacity)];
    }

    public WireWriter beginFrame(int type) {
        if (frameStart >= 0) {
            throw new IllegalStateException("a frame is already open");
        }
        frameStart = size;
        putI32(0);
        putU8(type);
        return this;
    }

    /** Closes the open frame; returns its total length on the wire (header included). */
    public int endFrame() {
        if (frameStart < 0) {
            throw new IllegalStateException("no frame is open");
        }
        int length = size - frameStart - 4;
        writeIntAt(frameStart, length);
        int total = size - frameStart;
        frameStart = -1;
        return total;
    }

    /** Drops the open frame (e.g. it grew past the peer's limit and will be re-encoded smaller). */
    public void abandonFrame() {
        if (frameStart >= 0) {
            size = frameStart;
            frameStart = -1;
        }
    }

    /** Bytes of the open frame so far, header included. */
    public int frameSize() {
        return frameStart < 0 ? 0 : size - frameStart;
    }

    public WireWriter putU8(int value) {
        ensure(1);
        buffer[size++] = (byte) value;
        return this;
    }

    public WireWriter putBool(boolean value) {
        return putU8(value ? 1 : 0);
    }

    public WireWriter putU16(int value) {
        if (value < 0 || value > 0xFFFF) {
            throw new IllegalArgumentException("u16 out of range: " + value);
        }
        ensure(2);
        buffer[size++] = (byte) (value >>> 8);
        buffer[size++] = (byte) value;
        return this;
    }

    public WireWriter putI32(int value) {
        ensure(4);
        writeIntAt(size, value);
        size += 4;
        return this;
    }

    public WireWriter putU32(long value) {
        if (value < 0 || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("u32 out of the protocol's range 0.." + Integer.MAX_VALUE + ": " + value);
        }
        return putI32((int) value);
    }

    public WireWriter putI64(long value) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buffer[size++] = (byte) (value >>> shift);
        }
        return this;
    }

    public WireWriter putF64(double value) {
        return putI64(Double.doubleToRawLongBits(value));
    }

    public WireWriter putString(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        putI32(bytes.length);
        return putBytes(bytes, 0, bytes.length);
    }

    public WireWriter putBytes(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, buffer, size, length);
        size += length;
        return this;
    }

    public WireWriter putType(WireType type) {
        putU8(type.tag());
        switch (type.tag()) {
            case WireType.DECIMAL -> putU8(type.precision()).putU8(type.scale());
            case WireType.VARCHAR, WireType.CHAR -> putU32(type.length());
            default -> {
            }
        }
        return this;
    }

    public WireWriter putColumn(ColumnDescription column) {
        putString(column.name());
        putType(column.type());
        return putBool(column.nullable());
    }

    /** Reserves {@code bytes} and returns the offset where they start, for writers that fill in place. */
    public int reserve(int bytes) {
        ensure(bytes);
        int at = size;
        size += bytes;
        return at;
    }

    /** Gives back the last {@code bytes} written or reserved. */
    void shrink(int bytes) {
        if (bytes < 0 || bytes > size - Math.max(0, frameStart)) {
            throw new IllegalArgumentException("cannot shrink by " + bytes);
        }
        size -= bytes;
    }

    public byte[] array() {
        return buffer;
    }

    public int size() {
        return size;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buffer, size);
    }

    public void clear() {
        size = 0;
        frameStart = -1;
    }

    void writeIntAt(int at, int value) {
        buffer[at] = (byte) (value >>> 24);
        buffer[at + 1] = (byte) (value >>> 16);
        buffer[at + 2] = (byte) (value >>> 8);
        buffer[at + 3] = (byte) value;
    }

    private void ensure(int more) {
        if (size + more > buffer.length) {
            long wanted = Math.max((long) buffer.length * 2, (long) size + more);
            if (wanted > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("frame buffer would exceed 2 GiB");
            }
            buffer = Arrays.copyOf(buffer, (int) wanted);
        }
    }
}
