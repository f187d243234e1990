package io.locusdb.protocol;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads frames from a blocking stream. The payload buffer is reused while frames fit, so a stream of batches does
 * not allocate a buffer per frame; a reader consumes {@link #reader} before asking for the next frame.
 */
public final class FrameReader {
    private final InputStream in;
    private final int maxFrameBytes;
    private final byte[] header = new byte[Protocol.FRAME_HEADER_BYTES];
    private byte[] payload = new byte[8192];
    private int type;
    private int length;

    public FrameReader(InputStream in, int maxFrameBytes) {
        this.in = in;
        this.maxFrameBytes = maxFrameBytes;
    }

    /** Reads the next frame; returns its type. EOF before a frame starts throws {@link EOFException}. */
    public int next() throws IOException {
        readFully(header, 0, header.length);
        int frameLength = WireReader.readIntAt(header, 0);
        if (frameLength < 1) {
            throw ProtocolException.malformed("frame length " + Integer.toUnsignedString(frameLength)
                    + " is invalid");
        }
        if (frameLength > maxFrameBytes) {
            throw new ProtocolException(ProtocolException.LIMIT_EXCEEDED, "frame of " + frameLength
                    + " bytes exceeds the limit of " + maxFrameBytes);
        }
        type = header[4] & 0xFF;
        length = frameLength - 1;
        if (payload.length < length) {
            payload = new byte[Math.max(length, Math.min(maxFrameBytes, payload.length * 2))];
        }
        readFully(payload, 0, length);
        return type;
    }

    public int type() {
        return type;
    }

    /** A reader over the current frame's payload. */
    public WireReader reader() {
        return new WireReader(payload, 0, length, Protocol.messageName(type));
    }

    private void readFully(byte[] into, int offset, int count) throws IOException {
        int done = 0;
        while (done < count) {
            int n = in.read(into, offset + done, count - done);
            if (n < 0) {
                throw new EOFException(done == 0 && offset == 0 && into == header
                        ? "the server closed the connection"
                        : "the connection closed in the middle of a frame");
            }
            done += n;
        }
    }
}
