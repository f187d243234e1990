package io.locusdb.server.pg;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Cuts the byte stream into {@link PgFrontendMessage}s. Until the StartupMessage, messages carry no type byte (an
 * SSLRequest or GSSENCRequest may come first, possibly both); after it, every message is a type byte and a
 * length. Lengths are checked before anything is buffered: an unauthenticated peer gets at most
 * {@link #MAX_STARTUP_BYTES} per message, an authenticated one {@code maxMessageBytes}.
 */
public final class PgMessageDecoder extends ByteToMessageDecoder {
    /** PostgreSQL's own limit for a startup packet. */
    public static final int MAX_STARTUP_BYTES = 10_000;
    static final int SSL_REQUEST = 80877103;
    static final int GSSENC_REQUEST = 80877104;
    static final int CANCEL_REQUEST = 80877102;

    private final int maxMessageBytes;
    private boolean started;
    private boolean authenticated;
    private boolean discarding;

    public PgMessageDecoder(int maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
    }

    /** The session logged in: messages may now be as large as the configured limit. */
    public void authenticated() {
        authenticated = true;
    }

    /** After a fatal error: everything still arriving is dropped. */
    public void discardFromNowOn() {
        discarding = true;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (discarding) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (!started) {
            untyped(in, out);
        } else {
            typed(in, out);
        }
    }

    private void untyped(ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 4) {
            return;
        }
        int length = in.getInt(in.readerIndex());
        if (length < 8 || length > MAX_STARTUP_BYTES) {
            throw violation("invalid startup packet length " + length);
        }
        if (in.readableBytes() < length) {
            return;
        }
        in.skipBytes(4);
        ByteBuf body = in.readSlice(length - 4);
        int code = body.readInt();
        switch (code) {
            case SSL_REQUEST -> out.add(exactly(body, new PgFrontendMessage.SslRequest()));
            case GSSENC_REQUEST -> out.add(exactly(body, new PgFrontendMessage.GssEncRequest()));
            case CANCEL_REQUEST -> {
                if (body.readableBytes() != 8) {
                    throw violation("a CancelRequest carries 16 bytes, this one " + length);
                }
                out.add(new PgFrontendMessage.CancelRequest(body.readInt(), body.readInt()));
                discarding = true;
            }
            default -> {
                int major = code >>> 16;
                int minor = code & 0xFFFF;
                if (major != 3) {
                    throw new PgProtocolException(PgProtocolException.NOT_SUPPORTED, "unsupported frontend protocol "
                            + major + "." + minor + ": server supports 3.0 to 3.0");
                }
                Map<String, String> parameters = new LinkedHashMap<>();
                while (true) {
                    String name = cString(body);
                    if (name.isEmpty()) {
                        break;
                    }
                    parameters.put(name, cString(body));
                }
                if (body.isReadable()) {
                    throw violation("the startup packet goes on after its terminating zero");
                }
                started = true;
                out.add(new PgFrontendMessage.Startup(major, minor, parameters));
            }
        }
    }

    private static PgFrontendMessage exactly(ByteBuf body, PgFrontendMessage m) {
        if (body.isReadable()) {
            throw violation("an encryption request carries 8 bytes, this one " + (body.readableBytes() + 8));
        }
        return m;
    }

    private void typed(ByteBuf in, List<Object> out) {
        while (in.readableBytes() >= 5) {
            int start = in.readerIndex();
            byte type = in.getByte(start);
            int length = in.getInt(start + 1);
            int limit = authenticated ? maxMessageBytes : MAX_STARTUP_BYTES;
            if (length < 4) {
                throw violation("invalid message length " + length + " for message type '" + printable(type) + "'");
            }
            if (length - 4 > limit) {
                throw new PgProtocolException(PgProtocolException.LIMIT_EXCEEDED, "message of type '"
                        + printable(type) + "' is " + length + " bytes; the limit is " + limit);
            }
            if (in.readableBytes() < 1 + length) {
                return;
            }
            in.skipBytes(5);
            ByteBuf body = in.readSlice(length - 4);
            out.add(message(type, body));
        }
    }

    private static PgFrontendMessage message(byte type, ByteBuf b) {
        PgFrontendMessage m = switch (type) {
            case 'Q' -> new PgFrontendMessage.Query(cString(b));
            case 'P' -> {
                String name = cString(b);
                String sql = cString(b);
                int count = count(b, 4, "parameter type");
                int[] types = new int[count];
                for (int i = 0; i < count; i++) {
                    types[i] = b.readInt();
                }
                yield new PgFrontendMessage.Parse(name, sql, types);
            }
            case 'B' -> bind(b);
            case 'D' -> new PgFrontendMessage.Describe(kind(b, "Describe"), cString(b));
            case 'E' -> new PgFrontendMessage.Execute(cString(b), need(b, 4).readInt());
            case 'C' -> new PgFrontendMessage.Close(kind(b, "Close"), cString(b));
            case 'S' -> new PgFrontendMessage.Sync();
            case 'H' -> new PgFrontendMessage.Flush();
            case 'X' -> new PgFrontendMessage.Terminate();
            case 'p' -> {
                byte[] body = new byte[b.readableBytes()];
                b.readBytes(body);
                yield new PgFrontendMessage.Password(body);
            }
            case 'd' -> {
                byte[] data = new byte[b.readableBytes()];
                b.readBytes(data);
                yield new PgFrontendMessage.CopyData(data);
            }
            case 'c' -> new PgFrontendMessage.CopyDone();
            case 'f' -> new PgFrontendMessage.CopyFail(cString(b));
            case 'F' -> {
                b.skipBytes(b.readableBytes());
                yield new PgFrontendMessage.FunctionCall();
            }
            default -> throw violation("invalid frontend message type " + (type & 0xFF)
                    + " ('" + printable(type) + "')");
        };
        if (b.isReadable()) {
            throw violation("message of type '" + printable(type) + "' has " + b.readableBytes()
                    + " bytes more than its fields");
        }
        return m;
    }

    private static PgFrontendMessage.Bind bind(ByteBuf b) {
        String portal = cString(b);
        String statement = cString(b);
        int formatCount = count(b, 2, "parameter format");
        short[] formats = new short[formatCount];
        for (int i = 0; i < formatCount; i++) {
            formats[i] = format(b.readShort());
        }
        int valueCount = count(b, 4, "parameter value");
        List<byte[]> values = new ArrayList<>(valueCount);
        for (int i = 0; i < valueCount; i++) {
            int length = need(b, 4).readInt();
            if (length == -1) {
                values.add(null);
            } else if (length < 0 || length > b.readableBytes()) {
                throw violation("parameter " + (i + 1) + " claims " + length + " bytes, " + b.readableBytes()
                        + " remain in the message");
            } else {
                byte[] value = new byte[length];
                b.readBytes(value);
                values.add(value);
            }
        }
        int resultCount = count(b, 2, "result format");
        short[] results = new short[resultCount];
        for (int i = 0; i < resultCount; i++) {
            results[i] = format(b.readShort());
        }
        if (formatCount > 1 && formatCount != valueCount) {
            throw violation("bind message has " + formatCount + " parameter formats but " + valueCount
                    + " parameters");
        }
        return new PgFrontendMessage.Bind(portal, statement, formats, values, results);
    }

    private static short format(short f) {
        if (f != 0 && f != 1) {
            throw new PgProtocolException("22023", "unsupported format code: " + f);
        }
        return f;
    }

    /** A 16-bit count followed by that many items of at least {@code width} bytes, which must fit the message. */
    private static int count(ByteBuf b, int width, String what) {
        int n = need(b, 2).readUnsignedShort();
        if ((long) n * width > b.readableBytes()) {
            throw violation(n + " " + what + "s do not fit the message");
        }
        return n;
    }

    private static char kind(ByteBuf b, String message) {
        byte k = need(b, 1).readByte();
        if (k != 'S' && k != 'P') {
            throw violation("invalid " + message + " kind '" + printable(k) + "': expected 'S' or 'P'");
        }
        return (char) k;
    }

    private static ByteBuf need(ByteBuf b, int bytes) {
        if (b.readableBytes() < bytes) {
            throw violation("message ends early");
        }
        return b;
    }

    static String cString(ByteBuf b) {
        int end = b.indexOf(b.readerIndex(), b.writerIndex(), (byte) 0);
        if (end < 0) {
            throw violation("a string is not terminated");
        }
        String s = b.toString(b.readerIndex(), end - b.readerIndex(), StandardCharsets.UTF_8);
        b.readerIndex(end + 1);
        return s;
    }

    private static String printable(byte type) {
        return type >= 32 && type < 127 ? String.valueOf((char) type) : "\\x" + Integer.toHexString(type & 0xFF);
    }

    private static PgProtocolException violation(String message) {
        return new PgProtocolException(PgProtocolException.PROTOCOL_VIOLATION, message);
    }
}
