package io.locusdb.core.exec;

import io.locusdb.core.exec.elastic.CoreAllocation;
import io.locusdb.natives.topology.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

/**
 * The executor's shared state: one task pool (or several) and one root queue per node, the workers, and the
 * active concurrency level. Workers ask it for their next task, submitters push into it, and the watchdog repairs
 * the concurrency level through it.
 *
 * <p>Lost wake-ups are avoided Dekker-style: a parking worker first publishes itself as parked and then looks for
 * work once more; a pusher first publishes the task and then looks for a parked worker. One of them sees the other.
 */
final class Scheduler {
    private final ExecutorConfig config;
    private final Topology topology;
    private final TaskClasses classes;
    private final StealingPolicy stealing;
    private final int nodes;
    /** Per node: its pools, root queue, steal order, parked workers and worker counts. */
    private final NodeQueues[] perNode;
    private final List<Worker> workers = new CopyOnWriteArrayList<>();
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger parkedCount = new AtomicInteger();
    private final AtomicInteger blockedCount = new AtomicInteger();
    private final AtomicInteger waitingCount = new AtomicInteger();
    private final AtomicInteger inactiveCount = new AtomicInteger();
    private final AtomicInteger workerIds = new AtomicInteger();
    private final AtomicInteger rootRoundRobin = new AtomicInteger();
    private final CoreAllocation allocation;
    private volatile int target;
    private volatile boolean shutdown;
    private final NumaExecutor executor;

    Scheduler(NumaExecutor executor, ExecutorConfig config, TaskClasses classes, CoreAllocation allocation) {
        this.executor = executor;
        this.config = config;
        this.topology = config.topology();
        this.classes = classes;
        this.stealing = config.stealing();
        this.allocation = allocation;
        this.nodes = topology.nodeCount();
        this.perNode = new NodeQueues[nodes];
        for (int n = 0; n < nodes; n++) {
            final int from = n;
            List<Integer> others = new ArrayList<>();
            for (int m = 0; m < nodes; m++) {
                if (m != n) {
                    others.add(m);
                }
            }
            others.sort(Comparator.<Integer>comparingInt(m -> topology.distance(from, m)).thenComparingInt(m -> m));
            perNode[n] = new NodeQueues(n, config.poolsPerNode(), config.rootPriorityBias(), config.rootOrder(),
                    others.stream().mapToInt(Integer::intValue).toArray());
        }
        this.target = allocation == null ? config.contexts() : allocation.allocatedCount();
    }

    int nodes() {
        return nodes;
    }

    TaskClasses classes() {
        return classes;
    }

    ExecutorConfig config() {
        return config;
    }

    NumaExecutor executor() {
        return executor;
    }

    CoreAllocation allocation() {
        return allocation;
    }

    List<Worker> workers() {
        return workers;
    }

    boolean isShutdown() {
        return shutdown;
    }

    void shutdown() {
        shutdown = true;
        for (Worker w : workers) {
            w.wakeForShutdown();
        }
    }

    // ---- pushing work -------------------------------------------------------------------------------------

    long keyOf(Task task) {
        return config.poolOrder() == PoolOrder.DEPTH ? -task.node.depth : task.run.query.startNanos();
    }

    /** A ready non-root task, to the pool of its preferred node (tasks without one: {@code fallbackNode}). */
    void pushReady(Task task, int fallbackNode) {
        int node = task.preferredNode() == Task.ANY_NODE ? fallbackNode : task.preferredNode();
        task.key = keyOf(task);
        TaskPool[] nodePools = perNode[node].pools;
        TaskPool pool = nodePools.length == 1 ? nodePools[0]
                : nodePools[ThreadLocalRandom.current().nextInt(nodePools.length)];
        pool.push(task);
        signalWork(node, task);
    }

    private static final int PUSH_CHUNK = 64;

    /**
     * Ready tasks released together (a fork node's children): pushed per node in chunks, one lock acquisition per
     * chunk, waking up to one parked worker per task pushed.
     */
    void pushReadyAll(Task[] ready, int count, int fallbackNode) {
        if (count == 1) {
            pushReady(ready[0], fallbackNode);
            return;
        }
        Task[] chunk = new Task[Math.min(count, PUSH_CHUNK)];
        for (int node = 0; node < nodes; node++) {
            int filled = 0;
            for (int i = 0; i < count; i++) {
                Task task = ready[i];
                int target = task.preferredNode() == Task.ANY_NODE ? fallbackNode : task.preferredNode();
                if (target != node) {
                    continue;
                }
                task.key = keyOf(task);
                chunk[filled++] = task;
                if (filled == chunk.length) {
                    pushChunk(node, chunk, filled);
                    filled = 0;
                }
            }
            if (filled > 0) {
                pushChunk(node, chunk, filled);
            }
        }
    }

    private void pushChunk(int node, Task[] chunk, int count) {
        TaskPool[] nodePools = perNode[node].pools;
        TaskPool pool = nodePools.length == 1 ? nodePools[0]
                : nodePools[ThreadLocalRandom.current().nextInt(nodePools.length)];
        pool.pushAll(chunk, 0, count);
        // One wake-up per task while the level is below target; a task nobody could be woken for (not stealable,
        // nobody parked on its node) says nothing about the next one.
        for (int i = 0; i < count && active.get() < target; i++) {
            signalWork(node, chunk[i]);
        }
    }

    /** A root, to its preferred node's root queue (no preference: round-robin over the nodes). */
    void pushRoot(Task root, int priority) {
        int node = root.preferredNode() == Task.ANY_NODE
                ? Math.floorMod(rootRoundRobin.getAndIncrement(), nodes) : root.preferredNode();
        root.key = keyOf(root);
        perNode[node].root.push(root, priority);
        signalWork(node, root);
    }

    /**
     * Makes sure someone will run work just queued on {@code node}: wakes one of the node's parked workers when
     * the active level is below target or nobody on the node is active; if the task may be stolen, a parked
     * worker of the nearest other node will do. Returns whether it woke one.
     */
    private boolean signalWork(int node, Task task) {
        if (active.get() >= target && perNode[node].active.get() > 0) {
            return false;
        }
        if (wakeOne(node)) {
            return true;
        }
        boolean anyNode = task.preferredNode() == Task.ANY_NODE;
        for (int other : perNode[node].stealOrder) {
            if ((anyNode || forcedSteal(node) || stealing.maySteal(task.taskClass(), node, other))
                    && active.get() < target && wakeOne(other)) {
                return true;
            }
        }
        return false;
    }

    /** Wakes one parked (not withdrawn) worker of {@code node}; false if there is none. */
    boolean wakeOne(int node) {
        ConcurrentLinkedDeque<Worker> parked = perNode[node].parked;
        Worker w;
        while ((w = parked.pollFirst()) != null) {
            if (isWithdrawn(w)) {
                // Its core was withdrawn while it idled: wake it so that it parks again as withdrawn (and is
                // counted so), but it is no help for this work.
                w.tryUnpark();
                continue;
            }
            if (w.tryUnpark()) {
                return true;
            }
        }
        return false;
    }

    // ---- finding work -------------------------------------------------------------------------------------

    /**
     * The next task for {@code worker}: its own node's pools, then its node's roots (or the other way round with
     * probability 1 - poolFirstProbability), then tasks and roots of other nodes, nearest first, that the stealing
     * policy lets it take.
     */
    Task findTask(Worker worker) {
        int node = worker.node;
        boolean poolsFirst = config.poolFirstProbability() >= 1.0
                || ThreadLocalRandom.current().nextDouble() < config.poolFirstProbability();
        Task task;
        if (poolsFirst && (task = pollOwnPools(worker)) != null) {
            return task;
        }
        if ((task = perNode[node].root.poll(i -> true)) != null) {
            return task;
        }
        if (!poolsFirst && (task = pollOwnPools(worker)) != null) {
            return task;
        }
        for (int other : perNode[node].stealOrder) {
            IntPredicate allowed = stealable(other, node);
            for (TaskPool pool : perNode[other].pools) {
                if ((task = pool.poll(allowed)) != null) {
                    return task;
                }
            }
        }
        for (int other : perNode[node].stealOrder) {
            if ((task = perNode[other].root.poll(stealable(other, node))) != null) {
                return task;
            }
        }
        return null;
    }

    private Task pollOwnPools(Worker worker) {
        TaskPool[] own = perNode[worker.node].pools;
        int first = own.length == 1 ? 0 : worker.id % own.length;
        for (int k = 0; k < own.length; k++) {
            Task task = own[(first + k) % own.length].poll();
            if (task != null) {
                return task;
            }
        }
        return null;
    }

    private IntPredicate stealable(int owner, int thief) {
        if (forcedSteal(owner)) {
            return i -> true;
        }
        return i -> i == TaskPool.ANY_NODE_HEAP || stealing.maySteal(classes.byId(i), owner, thief);
    }

    /** A node without allocated cores (elastic mode) cannot run its own tasks; everyone may take them. */
    private boolean forcedSteal(int node) {
        return allocation != null && allocation.allocatedOn(node) == 0;
    }

    /** Whether {@code worker} would find something to run right now. */
    boolean hasWorkFor(Worker worker) {
        return hasQueuedWork(worker.node) || anyStealableWorkFor(worker.node);
    }

    boolean hasQueuedWork(int node) {
        for (TaskPool pool : perNode[node].pools) {
            if (!pool.isEmpty()) {
                return true;
            }
        }
        return !perNode[node].root.isEmpty();
    }

    int poolLength(int node) {
        int length = 0;
        for (TaskPool pool : perNode[node].pools) {
            length += pool.size();
        }
        return length;
    }

    int rootQueueLength(int node) {
        return perNode[node].root.size();
    }

    // ---- active concurrency level -------------------------------------------------------------------------

    int active() {
        return active.get();
    }

    int activeOn(int node) {
        return perNode[node].active.get();
    }

    int target() {
        return target;
    }

    void setTarget(int target) {
        this.target = target;
    }

    int parked() {
        return parkedCount.get();
    }

    int blocked() {
        return blockedCount.get();
    }

    int waitingForGraph() {
        return waitingCount.get();
    }

    int declaredInactive() {
        return inactiveCount.get();
    }

    void becameActive(Worker w) {
        active.incrementAndGet();
        perNode[w.node].active.incrementAndGet();
    }

    void becameInactive(Worker w) {
        active.decrementAndGet();
        perNode[w.node].active.decrementAndGet();
    }

    /** Counts a worker leaving the active level for {@code state}. */
    void enter(Worker w, WorkerState state) {
        if (state != WorkerState.PARKED) {
            perNode[w.node].waiting.incrementAndGet();
        }
        becameInactive(w);
        counterOf(state).incrementAndGet();
    }

    /** Counts a worker coming back to the active level from {@code state}. */
    void leave(Worker w, WorkerState state) {
        counterOf(state).decrementAndGet();
        becameActive(w);
        if (state != WorkerState.PARKED) {
            perNode[w.node].waiting.decrementAndGet();
        }
    }

    /**
     * Workers of {@code node} that are parked or on their way to park (no longer counted active, not in a wait,
     * not withdrawn). While there is one, a new thread is not needed: it will look for work before it sleeps or
     * can be woken.
     */
    /** Workers of {@code node} not in a wait and not withdrawn: active, parked, or between the two. */
    int availableWorkers(int node) {
        return perNode[node].workers.get() - perNode[node].waiting.get() - perNode[node].withdrawn.get();
    }

    int parkedOrParking(int node) {
        return perNode[node].workers.get() - perNode[node].active.get() - perNode[node].waiting.get()
                - perNode[node].withdrawn.get();
    }

    private AtomicInteger counterOf(WorkerState state) {
        return switch (state) {
            case BLOCKED -> blockedCount;
            case WAITING_FOR_GRAPH -> waitingCount;
            case INACTIVE -> inactiveCount;
            case PARKED -> parkedCount;
            case ACTIVE -> throw new IllegalArgumentException("active is not an inactive state");
        };
    }

    /** Publishes {@code w} as parked and available for wake-ups (withdrawn workers are not). */
    void publishParked(Worker w, boolean available) {
        if (!available) {
            perNode[w.node].withdrawn.incrementAndGet();
        }
        enter(w, WorkerState.PARKED);
        w.markParked(available);
        if (available) {
            perNode[w.node].parked.addFirst(w);
        }
    }

    void unpublishParked(Worker w) {
        perNode[w.node].parked.remove(w);
    }

    /** Bookkeeping of a worker leaving a park on a withdrawn core (woken or by itself). */
    void leftWithdrawnPark(Worker w) {
        perNode[w.node].withdrawn.decrementAndGet();
    }

    /**
     * After a task: takes {@code w} out of the active level if the level is above target, with a CAS so that only
     * as many workers park as the level is over. On true the caller parks (already counted as parked).
     */
    boolean claimPark(Worker w) {
        while (true) {
            int now = active.get();
            if (now <= target) {
                return false;
            }
            if (active.compareAndSet(now, now - 1)) {
                perNode[w.node].active.decrementAndGet();
                parkedCount.incrementAndGet();
                w.markParked(true);
                perNode[w.node].parked.addFirst(w);
                return true;
            }
        }
    }

    /**
     * Brings a worker up for {@code node} right away (a worker went to wait for a graph or into an inactive
     * region): a parked one if there is one, else a new thread, as long as the active level is below target.
     */
    void replaceNow(int node) {
        if (active.get() >= target || wakeOne(node) || parkedOrParking(node) > 0) {
            return;
        }
        // Started even with nothing queued yet: the waiter's own graph usually arrives right after. An idle
        // replacement parks, and retires after a while (Worker.awaitUnpark).
        spawnWorker(nodeForNewWorker(node), -1);
    }

    private int nodeForNewWorker(int preferred) {
        if (allocation == null || allocation.allocatedOn(preferred) > 0) {
            return preferred;
        }
        for (int other : perNode[preferred].stealOrder) {
            if (allocation.allocatedOn(other) > 0) {
                return other;
            }
        }
        return preferred;
    }

    /**
     * Repair done by the watchdog: while the active level is below target and work is queued, wake parked
     * workers of nodes with work, then start new workers for them. A node with queued work and no active worker
     * gets one even when the level is at target, or its tasks would wait for stealing that may be disallowed.
     * Returns how many workers it woke or started.
     */
    int repair() {
        int changed = 0;
        for (int n = 0; n < nodes; n++) {
            if (!hasQueuedWork(n) || perNode[n].active.get() > 0) {
                continue;
            }
            if (allocation == null || allocation.allocatedOn(n) > 0) {
                if (wakeOne(n) || (availableWorkers(n) <= 0 && spawnWorker(n, -1) != null)) {
                    changed++;
                }
            } else if (active.get() == 0) {
                // The node has no core of its own; a worker of the nearest node with cores takes its work.
                for (int other : perNode[n].stealOrder) {
                    if (allocation.allocatedOn(other) > 0 && wakeOne(other)) {
                        changed++;
                        break;
                    }
                }
            }
        }
        // Parked workers first, on every node with work for them; new threads only when none could be woken.
        for (int n = 0; n < nodes && active.get() < target; n++) {
            while (active.get() < target && (hasQueuedWork(n) || anyStealableWorkFor(n)) && wakeOne(n)) {
                changed++;
            }
        }
        for (int n = 0; n < nodes && active.get() < target; n++) {
            // Threads beyond one per CPU only stand in for workers in waits; the node's own workers are parked or
            // busy otherwise, and woken or done soon.
            while (active.get() < target && hasQueuedWork(n) && (allocation == null || allocation.allocatedOn(n) > 0)
                    && perNode[n].waiting.get() > 0 && parkedOrParking(n) <= 0 && spawnWorker(n, -1) != null) {
                changed++;
            }
        }
        return changed;
    }

    private boolean anyStealableWorkFor(int node) {
        for (int other : perNode[node].stealOrder) {
            IntPredicate allowed = stealable(other, node);
            for (TaskPool pool : perNode[other].pools) {
                if (pool.hasAny(allowed)) {
                    return true;
                }
            }
            if (perNode[other].root.hasAny(allowed)) {
                return true;
            }
        }
        return false;
    }

    /** Starts a worker for {@code node}, pinned to {@code cpu} (or the node's CPUs when -1); null at the cap. */
    synchronized Worker spawnWorker(int node, int cpu) {
        if (shutdown || workers.size() >= config.maxWorkers()) {
            return null;
        }
        Worker worker = new Worker(this, workerIds.getAndIncrement(), node, cpu);
        workers.add(worker);
        perNode[node].workers.incrementAndGet();
        becameActive(worker);
        try {
            worker.start();
        } catch (Throwable t) {
            workers.remove(worker);
            perNode[node].workers.decrementAndGet();
            becameInactive(worker);
            throw t;
        }
        return worker;
    }

    /** Whether an idle replacement worker may exit: only while there are more workers than CPUs. */
    boolean mayRetire() {
        return workers.size() > topology.cpuCount();
    }

    /** A parked replacement worker leaves for good (it is counted parked and unpublished already). */
    void retire(Worker worker) {
        parkedCount.decrementAndGet();
        if (workers.remove(worker)) {
            perNode[worker.node].workers.decrementAndGet();
        }
    }

    void workerExited(Worker worker) {
        if (workers.remove(worker)) {
            perNode[worker.node].workers.decrementAndGet();
        }
    }

    /** Wakes the worker owning {@code cpu} if it idles, so that it parks again as withdrawn. */
    void coreWithdrawn(int cpu) {
        for (Worker w : workers) {
            if (w.cpu == cpu && w.tryUnpark()) {
                perNode[w.node].parked.remove(w);
            }
        }
    }

    /** Wakes the worker owning {@code cpu} after its core was allocated again (if it is parked). */
    void coreAllocated(int cpu) {
        for (Worker w : workers) {
            if (w.cpu == cpu && w.tryUnpark()) {
                perNode[w.node].parked.remove(w);
            }
        }
    }

    boolean isWithdrawn(Worker worker) {
        return allocation != null && worker.cpu >= 0 && !allocation.isAllocated(worker.cpu);
    }
}
