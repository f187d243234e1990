package io.locusdb.core.exec;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A reentrant lock whose contended waits the executor sees. The uncontended path is a plain tryLock, so only a
 * real wait costs the accounting.
 */
public final class TaskLock {
    private final ReentrantLock lock = new ReentrantLock();
    private final Blocking blocking;

    public TaskLock(NumaExecutor executor) {
        this.blocking = executor.blocking();
    }

    public void lock() throws InterruptedException {
        if (lock.tryLock()) {
            return;
        }
        blocking.block(() -> {
            lock.lockInterruptibly();
            return null;
        });
    }

    public void unlock() {
        lock.unlock();
    }

    public boolean isHeldByCurrentThread() {
        return lock.isHeldByCurrentThread();
    }

    public TaskCondition newCondition() {
        return new TaskCondition(lock.newCondition(), blocking);
    }

    /** A condition of a {@link TaskLock}; waiting on it is an ordinary block. */
    public static final class TaskCondition {
        private final Condition condition;
        private final Blocking blocking;

        private TaskCondition(Condition condition, Blocking blocking) {
            this.condition = condition;
            this.blocking = blocking;
        }

        public void await() throws InterruptedException {
            blocking.block(() -> {
                condition.await();
                return null;
            });
        }

        public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
            return blocking.block(() -> condition.await(timeout, unit));
        }

        public void signal() {
            condition.signal();
        }

        public void signalAll() {
            condition.signalAll();
        }
    }
}
