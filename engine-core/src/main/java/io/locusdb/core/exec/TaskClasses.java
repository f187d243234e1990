package io.locusdb.core.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The registry of task classes of one executor. Classes get small dense ids so that workers can keep per-class
 * counters in plain arrays (the hot path must not hash); {@link #MAX_CLASSES} bounds those arrays.
 */
public final class TaskClasses {
    public static final int MAX_CLASSES = 64;

    private final double weight;
    private final Map<String, TaskClass> byName = new ConcurrentHashMap<>();
    private final List<TaskClass> byId = new ArrayList<>();
    /** Read on the stealing path without the registry's lock. */
    private volatile TaskClass[] table = new TaskClass[0];

    /**
     * A registry outside any executor: the NUMA simulator runs the real stealing policy on classes whose averages it
     * feeds with simulated task throughputs.
     */
    public static TaskClasses standalone(double emaWeight) {
        return new TaskClasses(emaWeight);
    }

    TaskClasses(double emaWeight) {
        if (!(emaWeight > 0 && emaWeight <= 1)) {
            throw new IllegalArgumentException("task class average weight must be in (0, 1], got " + emaWeight);
        }
        this.weight = emaWeight;
    }

    /** The class with this name, created on first use. */
    public TaskClass of(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a task class needs a name");
        }
        TaskClass existing = byName.get(name);
        if (existing != null) {
            return existing;
        }
        synchronized (byId) {
            return byName.computeIfAbsent(name, n -> {
                if (byId.size() == MAX_CLASSES) {
                    throw new IllegalStateException("too many task classes (at most " + MAX_CLASSES + "): " + n);
                }
                TaskClass created = new TaskClass(byId.size(), n, weight);
                byId.add(created);
                table = byId.toArray(TaskClass[]::new);
                return created;
            });
        }
    }

    /** The class with this id (ids are dense from 0 in creation order). */
    public TaskClass byId(int id) {
        return table[id];
    }

    /** Whether {@code taskClass} was made by this registry (lock-free: checked for every submitted task). */
    public boolean contains(TaskClass taskClass) {
        TaskClass[] t = table;
        int id = taskClass.id();
        return id < t.length && t[id] == taskClass;
    }

    public List<TaskClass> all() {
        synchronized (byId) {
            return List.copyOf(byId);
        }
    }

    public int size() {
        synchronized (byId) {
            return byId.size();
        }
    }
}
