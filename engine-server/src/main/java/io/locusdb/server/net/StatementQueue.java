package io.locusdb.server.net;

import java.util.ArrayDeque;

/**
 * Runs a session's requests one at a time, in arrival order, on a virtual thread started when work arrives and
 * ended when the queue is empty: statements never run on an event loop, and a session holds no thread while idle.
 */
final class StatementQueue {
    private static final System.Logger LOG = System.getLogger(StatementQueue.class.getName());

    private final String name;
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private final Runnable onTaskDone;
    private boolean running;
    private boolean closed;

    StatementQueue(String name, Runnable onTaskDone) {
        this.name = name;
        this.onTaskDone = onTaskDone;
    }

    /** Queues a task; returns the number now waiting or running. */
    synchronized int submit(Runnable task) {
        if (closed) {
            return 0;
        }
        tasks.add(task);
        if (!running) {
            running = true;
            Thread.ofVirtual().name(name).start(this::drain);
        }
        return tasks.size() + 1;
    }

    synchronized int pending() {
        return tasks.size() + (running ? 1 : 0);
    }

    synchronized boolean idle() {
        return !running && tasks.isEmpty();
    }

    /** Drops what has not started; the running task ends on its own (its result is stopped separately). */
    synchronized void close() {
        closed = true;
        tasks.clear();
    }

    /** Drops what has not started and runs {@code last} once the running task (if any) has ended. */
    synchronized void closeThen(Runnable last) {
        closed = true;
        tasks.clear();
        tasks.add(last);
        if (!running) {
            running = true;
            Thread.ofVirtual().name(name).start(this::drain);
        }
    }

    private void drain() {
        while (true) {
            Runnable task;
            synchronized (this) {
                task = tasks.poll();
                if (task == null) {
                    running = false;
                    notifyAll();
                    return;
                }
            }
            Thread.interrupted();
            try {
                task.run();
            } catch (Throwable e) {
                LOG.log(System.Logger.Level.ERROR, name + ": request failed unexpectedly", e);
            }
            Thread.interrupted();
            onTaskDone.run();
        }
    }
}
