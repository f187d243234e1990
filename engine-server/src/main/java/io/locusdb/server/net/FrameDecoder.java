package io.locusdb.server.net;

import io.locusdb.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Splits the byte stream into {@link Frame}s. The length is checked as soon as its four bytes arrive, so a frame
 * over the limit is refused (54000) before any of its body is buffered; after a refusal everything is discarded.
 * The limit is small until the session is authenticated ({@link #authenticated}).
 */
final class FrameDecoder extends ByteToMessageDecoder {
    private final int maxFrameBytes;
    private volatile int limit;
    private boolean failed;

    FrameDecoder(int maxFrameBytes, int startupLimit) {
        this.maxFrameBytes = maxFrameBytes;
        this.limit = Math.min(maxFrameBytes, startupLimit);
    }

    /** Lifts the limit to the configured maximum once STARTUP succeeded. */
    void authenticated() {
        limit = maxFrameBytes;
    }

    /** Stops decoding: the connection is being closed after an error. */
    void discardFromNowOn() {
        failed = true;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        while (in.readableBytes() >= 4) {
            long length = in.getUnsignedInt(in.readerIndex());
            if (length < 1) {
                refuse(in, ProtocolException.malformed("frame length 0 is invalid: a frame holds at least its type"));
            }
            if (length > limit) {
                refuse(in, new ProtocolException(ProtocolException.LIMIT_EXCEEDED, "frame of " + length
                        + " bytes exceeds the limit of " + limit));
            }
            if (in.readableBytes() < 4 + length) {
                return;
            }
            in.skipBytes(4);
            int type = in.readUnsignedByte();
            byte[] payload = new byte[(int) length - 1];
            in.readBytes(payload);
            out.add(new Frame(type, payload));
        }
    }

    private void refuse(ByteBuf in, ProtocolException e) {
        failed = true;
        in.skipBytes(in.readableBytes());
        throw e;
    }
}
