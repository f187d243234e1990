package io.locusdb.natives.counters;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.locusdb.natives.ffm.Errno;
import io.locusdb.natives.ffm.LibC;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Counters for the thread that opened them, one perf event file descriptor per event. Events the kernel refuses
 * are reported as unavailable with the reason, never silently as zero. Reading does not allocate.
 */
public final class ThreadCounters implements AutoCloseable {
    private static final int ATTR_SIZE = 64; // PERF_ATTR_SIZE_VER0: every kernel since 2.6.31 accepts it
    private static final long FLAG_DISABLED = 1L;
    private static final long FLAG_EXCLUDE_KERNEL = 1L << 5;
    private static final long FLAG_EXCLUDE_HV = 1L << 6;
    private static final long IOC_ENABLE = 0x2400;
    private static final long IOC_DISABLE = 0x2401;
    private static final long IOC_RESET = 0x2403;
    private static final long PERF_FLAG_FD_CLOEXEC = 1L << 3;

    private final Map<PerfEvent, Integer> descriptors = new EnumMap<>(PerfEvent.class);
    private final Map<PerfEvent, CounterStatus> statuses = new EnumMap<>(PerfEvent.class);
    private final Arena arena = Arena.ofShared();
    private final MemorySegment readBuffer = arena.allocate(JAVA_LONG);
    private final MemorySegment capture = arena.allocate(java.lang.foreign.Linker.Option.captureStateLayout());
    private boolean closed;

    private ThreadCounters(Set<PerfEvent> events) {
        try (Arena attrArena = Arena.ofConfined()) {
            MemorySegment attr = attrArena.allocate(ATTR_SIZE, 8);
            for (PerfEvent event : events) {
                attr.fill((byte) 0);
                attr.set(JAVA_INT, 0, event.type().id);
                attr.set(JAVA_INT, 4, ATTR_SIZE);
                attr.set(JAVA_LONG, 8, event.config());
                // Excluding kernel and hypervisor keeps this working at perf_event_paranoid=2 without privileges.
                attr.set(JAVA_LONG, 40, FLAG_DISABLED | FLAG_EXCLUDE_KERNEL | FLAG_EXCLUDE_HV);
                int fd = LibC.perfEventOpen(attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
                if (fd < 0) {
                    statuses.put(event, new CounterStatus(event, false, explain(event, -fd)));
                    continue;
                }
                LibC.ioctl(fd, IOC_RESET, 0);
                LibC.ioctl(fd, IOC_ENABLE, 0);
                descriptors.put(event, fd);
                statuses.put(event, CounterStatus.ok(event));
            }
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    /** Opens and starts counting {@code events} for the calling thread. */
    public static ThreadCounters openForCurrentThread(Set<PerfEvent> events) {
        return new ThreadCounters(events);
    }

    /** Tries every event once and reports which can be counted here. */
    public static List<CounterStatus> probe() {
        try (ThreadCounters counters = new ThreadCounters(Set.of(PerfEvent.values()))) {
            List<CounterStatus> out = new ArrayList<>();
            for (PerfEvent event : PerfEvent.values()) {
                out.add(counters.status(event));
            }
            return out;
        }
    }

    public CounterStatus status(PerfEvent event) {
        CounterStatus status = statuses.get(event);
        return status != null ? status : new CounterStatus(event, false, "not requested");
    }

    public boolean isAvailable(PerfEvent event) {
        return descriptors.containsKey(event);
    }

    /** The event's count since opening; throws if the event is unavailable (check {@link #isAvailable}). */
    public synchronized long read(PerfEvent event) {
        Integer fd = descriptors.get(event);
        if (fd == null) {
            throw new IllegalStateException("counter " + status(event));
        }
        if (closed) {
            throw new IllegalStateException("counters are closed");
        }
        return LibC.readLong(fd, readBuffer, capture);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int fd : descriptors.values()) {
            try {
                LibC.ioctl(fd, IOC_DISABLE, 0);
            } finally {
                LibC.close(fd);
            }
        }
        arena.close();
    }

    private static String explain(PerfEvent event, int errno) {
        String base = Errno.name(errno) + " (" + LibC.strerror(errno) + ")";
        return switch (errno) {
            case Errno.ENOENT, Errno.EOPNOTSUPP -> base + (event.isHardware()
                    ? ": no hardware PMU exposed to this machine (typical for VMs)"
                    : ": event not supported by this kernel");
            case Errno.EACCES, Errno.EPERM -> base + ": not permitted; lower kernel.perf_event_paranoid or grant"
                    + " CAP_PERFMON";
            case Errno.ENOSYS -> base + ": the kernel has no perf_event support";
            case Errno.ENODEV -> base + ": no such PMU";
            default -> base;
        };
    }
}
