package io.locusdb.server.net;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's sessions by id, for CANCEL_REQUEST and shutdown, and the session limit: a slot is reserved before
 * READY is sent and given back when the connection closes.
 */
final class SessionRegistry {
    private final int maxSessions;
    private final ConcurrentHashMap<Long, ClientSession> sessions = new ConcurrentHashMap<>();
    private final AtomicInteger reserved = new AtomicInteger();
    private final AtomicLong ids = new AtomicLong();
    private final SecureRandom random = new SecureRandom();

    SessionRegistry(int maxSessions) {
        this.maxSessions = maxSessions;
    }

    boolean reserve() {
        while (true) {
            int now = reserved.get();
            if (now >= maxSessions) {
                return false;
            }
            if (reserved.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    void release() {
        reserved.decrementAndGet();
    }

    long nextId() {
        return ids.incrementAndGet();
    }

    long newCancelKey() {
        return random.nextLong();
    }

    void add(ClientSession session) {
        sessions.put(session.id(), session);
    }

    void remove(ClientSession session) {
        sessions.remove(session.id(), session);
    }

    /** Cancels the running statement of the session when the key matches (compared in constant time). */
    void cancel(long sessionId, long cancelKey) {
        ClientSession session = sessions.get(sessionId);
        if (session != null && MessageDigest.isEqual(bytes(cancelKey), bytes(session.cancelKey()))) {
            session.stopResult(ResultStream.Stop.CANCEL);
        }
    }

    Collection<ClientSession> all() {
        return List.copyOf(sessions.values());
    }

    int maxSessions() {
        return maxSessions;
    }

    private static byte[] bytes(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }
}
