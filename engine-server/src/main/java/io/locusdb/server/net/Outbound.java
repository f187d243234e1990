package io.locusdb.server.net;

import io.locusdb.protocol.Message;
import io.locusdb.protocol.MessageCodec;
import io.locusdb.protocol.WireWriter;
import io.locusdb.server.metrics.ServerMetrics;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;

/**
 * Writes frames to one connection from any thread (Netty queues writes from other threads onto the channel's event
 * loop, in call order, and a frame is always one buffer, so frames never interleave) and counts what is sent.
 */
final class Outbound {
    private final Channel channel;
    private final ServerMetrics metrics;

    Outbound(Channel channel, ServerMetrics metrics) {
        this.channel = channel;
        this.metrics = metrics;
    }

    Channel channel() {
        return channel;
    }

    ChannelFuture send(Message message) {
        WireWriter w = new WireWriter(64);
        MessageCodec.write(w, message);
        if (message instanceof Message.Error error) {
            metrics.error(error.sqlState());
        }
        return sendFrames(w);
    }

    /**
     * Sends the frames in {@code w} without copying: the caller must not touch {@code w} until the returned future
     * completes (the bytes are the one encoded batch a session may hold).
     */
    ChannelFuture sendFrames(WireWriter w) {
        metrics.bytesSent(w.size());
        return channel.writeAndFlush(Unpooled.wrappedBuffer(w.array(), 0, w.size()));
    }

    ChannelFuture error(String sqlState, String message) {
        return send(new Message.Error(sqlState, message, 0, 0));
    }
}
