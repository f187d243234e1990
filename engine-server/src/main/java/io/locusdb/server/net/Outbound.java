package io.locusdb.server.net;

import io.locusdb.protocol.Message;
import io.locusdb.protocol.MessageCodec;
import io.locusdb.protocol.Protocol;
import io.locusdb.protocol.WireWriter;
import io.locusdb.server.metrics.ServerMetrics;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import java.nio.channels.ClosedChannelException;

/**
 * Writes frames to one connection from any thread (Netty queues writes from other threads onto the channel's event
 * loop, in call order, and a frame is always one buffer, so frames never interleave) and counts what is sent. No
 * frame exceeds the announced maximum: ERROR and NOTICE texts are cut to {@link #MAX_MESSAGE_BYTES}, and a
 * RESULT_HEADER or PREPARED that would not fit is refused with 54000 for its statement. After a fatal error the
 * output is {@link #seal sealed}: that ERROR is the last frame the peer gets.
 */
final class Outbound {
    /** ERROR and NOTICE texts longer than this (UTF-8 bytes) are cut: they may echo a huge identifier. */
    static final int MAX_MESSAGE_BYTES = 8 * 1024;
    private static final String CUT = "... (truncated)";

    private final Channel channel;
    private final ServerMetrics metrics;
    private final int maxFrameBytes;
    private volatile boolean sealed;

    Outbound(Channel channel, ServerMetrics metrics, int maxFrameBytes) {
        this.channel = channel;
        this.metrics = metrics;
        this.maxFrameBytes = maxFrameBytes;
    }

    Channel channel() {
        return channel;
    }

    /**
     * Sends one message. A RESULT_HEADER or PREPARED over the frame limit throws {@link RequestException} (54000)
     * before anything is written, so the statement fails and the session goes on.
     */
    ChannelFuture send(Message message) {
        Message m = switch (message) {
            case Message.Error e -> new Message.Error(e.sqlState(), cut(e.message()), e.line(), e.column());
            case Message.Notice n -> new Message.Notice(n.sqlState(), cut(n.message()));
            default -> message;
        };
        WireWriter w = new WireWriter(64);
        MessageCodec.write(w, m);
        if (w.size() - 4 > maxFrameBytes) {
            String what = switch (m) {
                case Message.ResultHeader h -> "the result's header (" + h.columns().size() + " column descriptions)";
                case Message.Prepared p -> "the statement's description (" + p.columns().size() + " columns)";
                default -> "the " + Protocol.messageName(m.type()) + " message";
            };
            throw new RequestException("54000", what + " of " + (w.size() - 4)
                    + " bytes exceeds the maximum frame size " + maxFrameBytes);
        }
        if (m instanceof Message.Error error) {
            metrics.error(error.sqlState());
        }
        return sendFrames(w);
    }

    /**
     * Sends the frames in {@code w} without copying: the caller must not touch {@code w} until the returned future
     * completes (the bytes are the one encoded batch a session may hold).
     */
    synchronized ChannelFuture sendFrames(WireWriter w) {
        if (sealed) {
            return channel.newFailedFuture(new ClosedChannelException());
        }
        metrics.bytesSent(w.size());
        return channel.writeAndFlush(Unpooled.wrappedBuffer(w.array(), 0, w.size()));
    }

    /**
     * Sends a copy of the frames in {@code w}: the caller may reuse {@code w} at once, and need not wait for the
     * write (a small result's batch, where waiting would cost more than copying).
     */
    synchronized ChannelFuture sendCopy(WireWriter w) {
        if (sealed) {
            return channel.newFailedFuture(new ClosedChannelException());
        }
        metrics.bytesSent(w.size());
        return channel.writeAndFlush(Unpooled.copiedBuffer(w.array(), 0, w.size()));
    }

    ChannelFuture error(String sqlState, String message) {
        return send(new Message.Error(sqlState, message, 0, 0));
    }

    /** Sends a fatal ERROR as the last frame: everything sent afterwards (by any thread) fails instead. */
    synchronized ChannelFuture lastError(String sqlState, String message) {
        ChannelFuture f = error(sqlState, message);
        sealed = true;
        return f;
    }

    /** {@code text} cut to {@link #MAX_MESSAGE_BYTES} of UTF-8 (less when the frame limit is smaller). */
    String cut(String text) {
        int limit = Math.min(MAX_MESSAGE_BYTES, maxFrameBytes / 2);
        if (text.length() <= limit / 3) {
            return text;
        }
        int budget = limit - CUT.length();
        long bytes = 0;
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            int b = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (bytes + b > budget) {
                break;
            }
            bytes += b;
            i += Character.charCount(cp);
        }
        if (i == text.length()) {
            return text;
        }
        // Whatever fits the budget might still fit whole within the limit (the suffix's room was kept free).
        return io.locusdb.protocol.BatchEncoder.utf8Length(text) <= limit ? text : text.substring(0, i) + CUT;
    }
}
