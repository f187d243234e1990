package io.locusdb.server.net;

import io.locusdb.protocol.Protocol;
import io.locusdb.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Checks the 8-byte preamble (version first, then the magic), then leaves the pipeline: the bytes after it go on to
 * the {@link FrameDecoder}. A wrong version is refused as soon as its byte arrives, naming the version spoken.
 */
final class PreambleDecoder extends ByteToMessageDecoder {
    private boolean failed;

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.isReadable() && in.getByte(in.readerIndex()) != Protocol.VERSION) {
            failed = true;
            int version = in.getByte(in.readerIndex()) & 0xFF;
            in.skipBytes(in.readableBytes());
            throw ProtocolException.malformed("protocol version " + version + " is not supported; this server speaks"
                    + " version " + Protocol.VERSION);
        }
        if (in.readableBytes() < Protocol.PREAMBLE_BYTES) {
            return;
        }
        byte[] preamble = new byte[Protocol.PREAMBLE_BYTES];
        in.readBytes(preamble);
        try {
            Protocol.checkPreamble(preamble);
        } catch (ProtocolException e) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw e;
        }
        ctx.pipeline().remove(this);
    }
}
