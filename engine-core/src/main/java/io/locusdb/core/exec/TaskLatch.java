package io.locusdb.core.exec;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A count-down latch whose waits the executor sees (see {@link Blocking}). */
public final class TaskLatch {
    private final CountDownLatch latch;
    private final Blocking blocking;

    public TaskLatch(NumaExecutor executor, int count) {
        this.latch = new CountDownLatch(count);
        this.blocking = executor.blocking();
    }

    public void countDown() {
        latch.countDown();
    }

    public long count() {
        return latch.getCount();
    }

    public void await() throws InterruptedException {
        if (latch.getCount() == 0) {
            return;
        }
        blocking.block(() -> {
            latch.await();
            return null;
        });
    }

    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        if (latch.getCount() == 0) {
            return true;
        }
        return blocking.block(() -> latch.await(timeout, unit));
    }
}
