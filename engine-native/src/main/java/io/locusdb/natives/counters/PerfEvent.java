package io.locusdb.natives.counters;

/**
 * Per-thread events LocusDB may count with {@code perf_event_open}. Hardware ones need a PMU the kernel exposes
 * (these VMs have none: ENOENT); software ones are counted by the kernel itself and work almost everywhere.
 */
public enum PerfEvent {
    CYCLES(Type.HARDWARE, 0),
    INSTRUCTIONS(Type.HARDWARE, 1),
    CACHE_MISSES(Type.HARDWARE, 3),
    /** Last-level cache read misses: × 64 bytes approximates memory traffic of a task. */
    LLC_READ_MISSES(Type.HW_CACHE, 2 | (0 << 8) | (1 << 16)),
    TASK_CLOCK(Type.SOFTWARE, 1),
    PAGE_FAULTS(Type.SOFTWARE, 2),
    CONTEXT_SWITCHES(Type.SOFTWARE, 3),
    CPU_MIGRATIONS(Type.SOFTWARE, 4);

    /** perf_type_id values. */
    public enum Type {
        HARDWARE(0), SOFTWARE(1), HW_CACHE(3);

        final int id;

        Type(int id) {
            this.id = id;
        }
    }

    private final Type type;
    private final long config;

    PerfEvent(Type type, long config) {
        this.type = type;
        this.config = config;
    }

    public Type type() {
        return type;
    }

    public long config() {
        return config;
    }

    public boolean isHardware() {
        return type != Type.SOFTWARE;
    }
}
