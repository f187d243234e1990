package io.locusdb.protocol;

import java.nio.charset.StandardCharsets;

/** Constants of protocol version 1 (docs/protocol.md): the preamble, frame limits and message type bytes. */
public final class Protocol {
    public static final byte VERSION = 1;
    public static final byte[] MAGIC = "LOCUSDB".getBytes(StandardCharsets.US_ASCII);
    public static final int PREAMBLE_BYTES = 1 + 7;
    /** Length (u32) plus type (u8). */
    public static final int FRAME_HEADER_BYTES = 5;
    public static final int DEFAULT_MAX_FRAME_BYTES = 16 << 20;
    /** The engine's batch size; a BATCH never carries more rows. */
    public static final int MAX_BATCH_ROWS = 4096;

    // client -> server
    public static final int STARTUP = 0x01;
    public static final int CANCEL_REQUEST = 0x02;
    public static final int PREPARE = 0x03;
    public static final int EXECUTE = 0x04;
    public static final int QUERY = 0x05;
    public static final int FETCH = 0x06;
    public static final int CANCEL = 0x07;
    public static final int CLOSE_RESULT = 0x08;
    public static final int CLOSE_STATEMENT = 0x09;
    public static final int TERMINATE = 0x0A;
    public static final int PING = 0x0B;
    public static final int METADATA = 0x0C;

    // server -> client
    public static final int READY = 0x41;
    public static final int PREPARED = 0x42;
    public static final int RESULT_HEADER = 0x43;
    public static final int BATCH = 0x44;
    public static final int RESULT_END = 0x45;
    public static final int ERROR = 0x46;
    public static final int CLOSED = 0x47;
    public static final int PONG = 0x48;
    public static final int NOTICE = 0x49;

    private Protocol() {
    }

    /** The 8 bytes a client sends first. */
    public static byte[] preamble() {
        byte[] bytes = new byte[PREAMBLE_BYTES];
        bytes[0] = VERSION;
        System.arraycopy(MAGIC, 0, bytes, 1, MAGIC.length);
        return bytes;
    }

    /** Checks a received preamble; the message names what is wrong. */
    public static void checkPreamble(byte[] bytes) {
        if (bytes.length != PREAMBLE_BYTES) {
            throw ProtocolException.malformed("preamble must be " + PREAMBLE_BYTES + " bytes, got " + bytes.length);
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (bytes[i + 1] != MAGIC[i]) {
                throw ProtocolException.malformed("not a LocusDB client: the preamble lacks the LOCUSDB magic");
            }
        }
        if (bytes[0] != VERSION) {
            throw ProtocolException.malformed("protocol version " + (bytes[0] & 0xFF)
                    + " is not supported; this server speaks version " + VERSION);
        }
    }

    public static String messageName(int type) {
        return switch (type) {
            case STARTUP -> "STARTUP";
            case CANCEL_REQUEST -> "CANCEL_REQUEST";
            case PREPARE -> "PREPARE";
            case EXECUTE -> "EXECUTE";
            case QUERY -> "QUERY";
            case FETCH -> "FETCH";
            case CANCEL -> "CANCEL";
            case CLOSE_RESULT -> "CLOSE_RESULT";
            case CLOSE_STATEMENT -> "CLOSE_STATEMENT";
            case TERMINATE -> "TERMINATE";
            case PING -> "PING";
            case METADATA -> "METADATA";
            case READY -> "READY";
            case PREPARED -> "PREPARED";
            case RESULT_HEADER -> "RESULT_HEADER";
            case BATCH -> "BATCH";
            case RESULT_END -> "RESULT_END";
            case ERROR -> "ERROR";
            case CLOSED -> "CLOSED";
            case PONG -> "PONG";
            case NOTICE -> "NOTICE";
            default -> String.format("unknown message 0x%02X", type);
        };
    }
}
