package io.locusdb.core.exec;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntPredicate;

/**
 * The ready tasks of one NUMA node, ordered by a key (graph depth, deepest first, or the query's start time), FIFO
 * among equal keys. Tasks are kept in one heap per task class so that a thief can take the best task among the
 * classes it may steal without scanning the pool, and the owner takes the best head across all classes.
 */
final class TaskPool {
    private final int node;
    private final ReentrantLock lock = new ReentrantLock();
    /** Heap index of tasks without a preferred node: any worker may take them, they are never "stolen". */
    static final int ANY_NODE_HEAP = TaskClasses.MAX_CLASSES;

    private final TaskHeap[] heaps = new TaskHeap[TaskClasses.MAX_CLASSES + 1];
    private int classLimit;
    private long sequence;
    /** Read without the lock by workers deciding whether to look here at all. */
    private volatile int size;

    TaskPool(int node) {
        this.node = node;
    }

    int node() {
        return node;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /**
     * Takes the lock, spinning briefly before parking: pool critical sections are a few heap steps, far shorter
     * than a park/unpark round trip, which showed up as the executor's main cost with small tasks.
     */
    private void acquire() {
        if (lock.tryLock()) {
            return;
        }
        for (int spins = 0; spins < 128; spins++) {
            Thread.onSpinWait();
            if (lock.tryLock()) {
                return;
            }
        }
        lock.lock();
    }

    /** Pushes {@code count} tasks from {@code tasks[from]} under one lock acquisition. */
    void pushAll(Task[] tasks, int from, int count) {
        acquire();
        try {
            for (int i = from; i < from + count; i++) {
                pushLocked(tasks[i]);
            }
        } finally {
            lock.unlock();
        }
    }

    void push(Task task) {
        acquire();
        try {
            pushLocked(task);
        } finally {
            lock.unlock();
        }
    }

    private void pushLocked(Task task) {
        int cls = task.preferredNode() == Task.ANY_NODE ? ANY_NODE_HEAP : task.taskClass().id();
        TaskHeap heap = heaps[cls];
        if (heap == null) {
            heap = new TaskHeap();
            heaps[cls] = heap;
            classLimit = Math.max(classLimit, cls + 1);
        }
        task.sequence = sequence++;
        task.queuedNode = node;
        heap.push(task);
        size++;
    }

    /** The best task of any class, or null. */
    Task poll() {
        return poll(cls -> true);
    }

    /** The best task whose heap index (class id, or {@link #ANY_NODE_HEAP}) satisfies {@code allowed}, or null. */
    Task poll(IntPredicate allowed) {
        if (size == 0) {
            return null;
        }
        acquire();
        try {
            TaskHeap best = null;
            for (int c = 0; c < classLimit; c++) {
                TaskHeap heap = heaps[c];
                if (heap != null && heap.size > 0 && allowed.test(c)
                        && (best == null || before(heap.peek(), best.peek()))) {
                    best = heap;
                }
            }
            if (best == null) {
                return null;
            }
            size--;
            return best.pop();
        } finally {
            lock.unlock();
        }
    }

    /** Whether some queued task's heap index satisfies {@code allowed}. */
    boolean hasAny(IntPredicate allowed) {
        if (size == 0) {
            return false;
        }
        lock.lock();
        try {
            for (int c = 0; c < classLimit; c++) {
                if (heaps[c] != null && heaps[c].size > 0 && allowed.test(c)) {
                    return true;
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    private static boolean before(Task a, Task b) {
        return a.key != b.key ? a.key < b.key : a.sequence < b.sequence;
    }

    /** Binary min-heap on (key, sequence). */
    private static final class TaskHeap {
        private Task[] items = new Task[16];
        private int size;

        Task peek() {
            return items[0];
        }

        void push(Task task) {
            if (size == items.length) {
                items = Arrays.copyOf(items, size * 2);
            }
            int i = size++;
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                if (!before(task, items[parent])) {
                    break;
                }
                items[i] = items[parent];
                i = parent;
            }
            items[i] = task;
        }

        Task pop() {
            Task top = items[0];
            Task last = items[--size];
            items[size] = null;
            if (size > 0) {
                int i = 0;
                while (true) {
                    int child = 2 * i + 1;
                    if (child >= size) {
                        break;
                    }
                    if (child + 1 < size && before(items[child + 1], items[child])) {
                        child++;
                    }
                    if (!before(items[child], last)) {
                        break;
                    }
                    items[i] = items[child];
                    i = child;
                }
                items[i] = last;
            }
            return top;
        }
    }
}
