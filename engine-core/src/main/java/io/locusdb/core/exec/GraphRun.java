package io.locusdb.core.exec;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** The run-time state of one submitted graph: tasks still to finish, the first failure, and its completion. */
final class GraphRun implements GraphHandle {
    private final NumaExecutor executor;
    final TaskGraph graph;
    final QueryContext query;
    final int priority;
    private final AtomicInteger remaining;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CompletableFuture<Void> completion = new CompletableFuture<>();

    GraphRun(NumaExecutor executor, TaskGraph graph, QueryContext query, int priority) {
        this.executor = executor;
        this.graph = graph;
        this.query = query;
        this.priority = priority;
        this.remaining = new AtomicInteger(graph.size());
    }

    /** A task added at run time by {@code parent}; counted before it is queued so the graph cannot end first. */
    Task fork(Task parent, TaskClass taskClass, int preferredNode, UtilizationTarget target, TaskBody body) {
        executor.checkTask(taskClass, preferredNode, graph);
        TaskGraph.Node node = TaskGraph.Node.dynamic(graph, taskClass, preferredNode, target, body,
                parent.node.depth + 1);
        remaining.incrementAndGet();
        return new Task(node, this);
    }

    /**
     * Completes the graph now with {@code error}, whatever its tasks are doing (executor shut down with the graph
     * unfinished). Tasks still queued are dropped with the executor.
     */
    void abort(Throwable error) {
        fail(error);
        executor.graphFinished(this);
        completion.completeExceptionally(error);
    }

    /** Whether tasks that have not started yet should be skipped. */
    boolean skipping() {
        return failure.get() != null || query.isCancelled();
    }

    void fail(Throwable error) {
        failure.compareAndSet(null, error);
    }

    /** Called once per task when it finished (ran, failed or was skipped); the last one completes the graph. */
    void taskFinished() {
        if (remaining.decrementAndGet() == 0) {
            Throwable error = failure.get();
            if (error == null && query.isCancelled()) {
                try {
                    query.checkCancelled();
                } catch (QueryCancelledException cancelled) {
                    error = cancelled;
                }
            }
            executor.graphFinished(this);
            if (error == null) {
                completion.complete(null);
            } else {
                completion.completeExceptionally(error);
            }
        }
    }

    @Override
    public void await() {
        if (!completion.isDone()) {
            executor.blocking().waitForGraph(() -> {
                try {
                    completion.get();
                } catch (ExecutionException ignored) {
                    // reported below, with the task's own exception
                }
                return true;
            });
        }
        rethrow();
    }

    @Override
    public boolean await(Duration timeout) {
        if (!completion.isDone()) {
            boolean finished = executor.blocking().waitForGraph(() -> {
                try {
                    completion.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
                } catch (ExecutionException ignored) {
                    // reported below
                } catch (TimeoutException timedOut) {
                    return false;
                }
                return true;
            });
            if (!finished) {
                return false;
            }
        }
        rethrow();
        return true;
    }

    private void rethrow() {
        try {
            completion.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new TaskFailedException(graph.name(), cause);
        }
    }

    @Override
    public boolean isDone() {
        return completion.isDone();
    }

    @Override
    public void cancel(String reason) {
        query.cancel(reason);
    }

    @Override
    public QueryContext query() {
        return query;
    }

    @Override
    public CompletableFuture<Void> completion() {
        return completion.copy();
    }
}
