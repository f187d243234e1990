package io.locusdb.core.exec;

/** A task threw a checked exception; the cause is what it threw. */
public final class TaskFailedException extends RuntimeException {
    public TaskFailedException(String task, Throwable cause) {
        super("task " + task + " failed: " + cause, cause);
    }
}
