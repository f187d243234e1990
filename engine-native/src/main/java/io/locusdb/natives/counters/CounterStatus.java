package io.locusdb.natives.counters;

/**
 * Whether an event can be counted here, and if not, why (the kernel's errno and what it usually means).
 */
public record CounterStatus(PerfEvent event, boolean available, String reason) {
    public static CounterStatus ok(PerfEvent event) {
        return new CounterStatus(event, true, "");
    }

    @Override
    public String toString() {
        return event + (available ? ": available" : ": unavailable — " + reason);
    }
}
