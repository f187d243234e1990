package io.locusdb.core.exec;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A query's memory allowance, shared by all of its tasks. Operators reserve before they allocate and release when
 * they free; a reservation over the limit fails the query with a clear error instead of exhausting the machine.
 */
public final class MemoryBudget {
    private final long limit;
    private final AtomicLong reserved = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();

    public MemoryBudget(long limitBytes) {
        if (limitBytes <= 0) {
            throw new IllegalArgumentException("a memory budget must be positive, got " + limitBytes);
        }
        this.limit = limitBytes;
    }

    public static MemoryBudget unlimited() {
        return new MemoryBudget(Long.MAX_VALUE);
    }

    public void reserve(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot reserve " + bytes + " bytes");
        }
        long now = reserved.addAndGet(bytes);
        if (now < 0 || now > limit) {
            reserved.addAndGet(-bytes);
            throw new MemoryBudgetExceededException(bytes, now - bytes, limit);
        }
        peak.accumulateAndGet(now, Math::max);
    }

    public void release(long bytes) {
        long now = reserved.addAndGet(-bytes);
        if (now < 0) {
            reserved.addAndGet(bytes);
            throw new IllegalStateException("released " + bytes + " bytes but only " + (now + bytes)
                    + " were reserved");
        }
    }

    public long limit() {
        return limit;
    }

    public long reserved() {
        return reserved.get();
    }

    public long peak() {
        return peak.get();
    }
}
