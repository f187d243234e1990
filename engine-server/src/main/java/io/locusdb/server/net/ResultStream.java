package io.locusdb.server.net;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The state an open result shares between the event loop (FETCH credit, CANCEL, CLOSE_RESULT, timeouts,
 * disconnects) and the virtual thread that streams it. A stop interrupts the streaming thread, which may be blocked
 * in the engine (an aggregation running, a queue waiting for producers) or on a write; once the thread has
 * {@link #finish finished} nothing interrupts it any more, so the next statement on that thread is never hit.
 */
final class ResultStream {
    /** Why a result ended before its last row. */
    enum Stop {
        CLOSE_RESULT, CANCEL, TIMEOUT, SHUTDOWN, DISCONNECT
    }

    final int initialCredit;
    final int maxRows;
    final int timeoutMillis;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private long credit;
    private Stop stop;
    private Thread thread;
    private boolean finished;

    ResultStream(int fetchBatches, int maxRows, int timeoutMillis) {
        this.initialCredit = fetchBatches;
        this.credit = fetchBatches;
        this.maxRows = maxRows;
        this.timeoutMillis = timeoutMillis;
    }

    boolean initialCreditMissing() {
        return initialCredit < 1;
    }

    void addCredit(long batches) {
        lock.lock();
        try {
            credit = Math.min(Long.MAX_VALUE / 2, credit + batches);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Records the first stop reason and wakes (interrupts) the streaming thread. */
    void stop(Stop reason) {
        lock.lock();
        try {
            if (stop != null || finished) {
                return;
            }
            stop = reason;
            if (thread != null) {
                thread.interrupt();
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    Stop stopReason() {
        lock.lock();
        try {
            return stop;
        } finally {
            lock.unlock();
        }
    }

    /** Wakes the streaming thread to look at the channel's writability again. */
    void wake() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    void attach(Thread streaming) {
        lock.lock();
        try {
            thread = streaming;
            if (stop != null) {
                streaming.interrupt();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits until a batch may be sent: credit left and the channel writable. False when the result was stopped. */
    boolean awaitSendable(BooleanSupplier writable) throws InterruptedException {
        lock.lock();
        try {
            while (stop == null && (credit <= 0 || !writable.getAsBoolean())) {
                // Writability changes are signalled, but a bounded wait guards against a missed one.
                changed.await(credit <= 0 ? 1000 : 50, TimeUnit.MILLISECONDS);
            }
            if (stop != null) {
                return false;
            }
            credit--;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** No more interrupts from here on; clears one that may have arrived meanwhile. */
    void finish() {
        lock.lock();
        try {
            finished = true;
            thread = null;
        } finally {
            lock.unlock();
        }
        Thread.interrupted();
    }
}
