package io.locusdb.core.eris;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

/**
 * An AEU's two incoming command buffers (ERIS §3.2, after LLAMA's latch-free multi-buffer): any thread copies a
 * batch of commands into the writable one, the owning AEU swaps the two and processes the other. Each buffer has a
 * 64-bit descriptor, changed only by compare-and-set: bit 63 says it is the writable (active) one, bits 32-62 count
 * the writers copying into it, bits 0-31 hold the offset of its first free slot. A writer reserves its slots and
 * counts itself in with one CAS, copies, and counts itself out; the owner makes the other buffer active, clears
 * the active bit of this one, and waits for its writers to leave before reading it. No lock, and a writer never
 * waits for another writer.
 */
public final class IncomingBuffers {
    private static final long ACTIVE = 1L << 63;
    private static final int WRITER_SHIFT = 32;
    private static final long ONE_WRITER = 1L << WRITER_SHIFT;
    private static final long WRITERS = ((1L << 31) - 1) << WRITER_SHIFT;
    private static final long OFFSET = 0xFFFF_FFFFL;
    private static final VarHandle DESCRIPTORS = MethodHandles.arrayElementVarHandle(long[].class);

    private final Object[][] slots;
    private final long[] descriptors = new long[2];
    private volatile int writable;
    private final int capacity;

    /** Two buffers of {@code capacity} commands each. */
    public IncomingBuffers(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.capacity = capacity;
        this.slots = new Object[][] {new Object[capacity], new Object[capacity]};
        DESCRIPTORS.setVolatile(descriptors, 0, ACTIVE);
        DESCRIPTORS.setVolatile(descriptors, 1, 0L);
    }

    public int capacity() {
        return capacity;
    }

    /**
     * Copies {@code commands[from .. from+count)} into the writable buffer, as one run; false (nothing copied) when
     * it has no room for all of them: the caller keeps them and offers again after the owner's next swap.
     */
    public boolean offer(Object[] commands, int from, int count) {
        if (count > capacity) {
            throw new IllegalArgumentException(count + " commands for buffers of " + capacity);
        }
        while (true) {
            int b = writable;
            long d = (long) DESCRIPTORS.getVolatile(descriptors, b);
            if ((d & ACTIVE) == 0) {
                // The owner is swapping: the other buffer is (about to be) the writable one.
                Thread.onSpinWait();
                continue;
            }
            long offset = d & OFFSET;
            if (offset + count > capacity) {
                return false;
            }
            if (DESCRIPTORS.compareAndSet(descriptors, b, d, d + count + ONE_WRITER)) {
                System.arraycopy(commands, from, slots[b], (int) offset, count);
                // Counting out publishes the copied slots to the owner, who reads them after seeing no writers.
                DESCRIPTORS.getAndAdd(descriptors, b, -ONE_WRITER);
                return true;
            }
        }
    }

    /** Offers one command. */
    public boolean offer(Object command) {
        return offer(new Object[] {command}, 0, 1);
    }

    /**
     * The owner only: makes the other buffer writable, waits until every writer of this one has finished copying,
     * and hands its commands, in the order their runs were reserved, to {@code consumer}; returns how many.
     */
    public int drain(Consumer<Object> consumer) {
        int b = writable;
        int other = 1 - b;
        // The other buffer was drained last time: no writers, offset 0. Writers are pointed at it first and find
        // it active only then: a writer that read it as writable two swaps ago and kept its old descriptor could
        // otherwise reserve in it while this buffer still takes the same writer's next run, and the two runs would
        // come out in the wrong order.
        writable = other;
        DESCRIPTORS.setVolatile(descriptors, other, ACTIVE);
        long d;
        do {
            d = (long) DESCRIPTORS.getVolatile(descriptors, b);
        } while (!DESCRIPTORS.compareAndSet(descriptors, b, d, d & ~ACTIVE));
        while (((d = (long) DESCRIPTORS.getVolatile(descriptors, b)) & WRITERS) != 0) {
            Thread.onSpinWait();
        }
        int count = (int) (d & OFFSET);
        Object[] buffer = slots[b];
        for (int i = 0; i < count; i++) {
            Object command = buffer[i];
            buffer[i] = null;
            consumer.accept(command);
        }
        DESCRIPTORS.setVolatile(descriptors, b, 0L);
        return count;
    }

    /** Commands waiting in the writable buffer now (a snapshot, for the AEU deciding whether to sleep). */
    public int pending() {
        return (int) ((long) DESCRIPTORS.getVolatile(descriptors, writable) & OFFSET);
    }
}
