package io.locusdb.natives.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * Hand-written FFM bindings to the libc functions LocusDB needs: anonymous mappings, CPU affinity, the current CPU,
 * and the raw {@code syscall} entry used for {@code perf_event_open}. Every failing call raises
 * {@link NativeCallException} with the errno name.
 */
public final class LibC {
    public static final int PROT_READ = 0x1;
    public static final int PROT_WRITE = 0x2;
    public static final int MAP_PRIVATE = 0x02;
    public static final int MAP_ANONYMOUS = 0x20;
    public static final int MAP_NORESERVE = 0x4000;
    public static final int MADV_DONTNEED = 4;
    public static final int MADV_HUGEPAGE = 14;
    public static final int MADV_NOHUGEPAGE = 15;
    public static final long SYS_PERF_EVENT_OPEN = 298; // x86-64

    private static final long MAP_FAILED = -1L;

    private static final SymbolLookup LIBC = Downcalls.LINKER.defaultLookup();
    private static final MethodHandle MMAP = Downcalls.bind(LIBC, "mmap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG),
            Downcalls.CAPTURE_ERRNO);
    private static final MethodHandle MUNMAP = Downcalls.bind(LIBC, "munmap",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG), Downcalls.CAPTURE_ERRNO);
    private static final MethodHandle MALLOC = Downcalls.bind(LIBC, "malloc",
            FunctionDescriptor.of(ADDRESS, JAVA_LONG));
    private static final MethodHandle FREE = Downcalls.bind(LIBC, "free", FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle MADVISE = Downcalls.bind(LIBC, "madvise",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), Downcalls.CAPTURE_ERRNO);
    private static final MethodHandle SCHED_SETAFFINITY = Downcalls.bind(LIBC, "sched_setaffinity",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS), Downcalls.CAPTURE_ERRNO);
    private static final MethodHandle SCHED_GETAFFINITY = Downcalls.bind(LIBC, "sched_getaffinity",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS), Downcalls.CAPTURE_ERRNO);
    // sched_getcpu is a vDSO-backed leaf call on the hot path of task dispatch: no errno capture, no safepoint poll.
    private static final MethodHandle SCHED_GETCPU = Downcalls.bind(LIBC, "sched_getcpu",
            FunctionDescriptor.of(JAVA_INT), Linker.Option.critical(false));
    private static final MethodHandle GETPAGESIZE = Downcalls.bind(LIBC, "getpagesize",
            FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle STRERROR = Downcalls.bind(LIBC, "strerror",
            FunctionDescriptor.of(ADDRESS, JAVA_INT));
    // long syscall(long number, ...): perf_event_open(attr*, pid, cpu, group_fd, flags)
    private static final MethodHandle SYSCALL_PERF_EVENT_OPEN = Downcalls.bind(LIBC, "syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG),
            Linker.Option.firstVariadicArg(1), Downcalls.CAPTURE_ERRNO);
    private static final MethodHandle READ = Downcalls.bind(LIBC, "read",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), Downcalls.CAPTURE_ERRNO);
    // int ioctl(int fd, unsigned long request, ...): the perf ioctls take an int argument.
    private static final MethodHandle IOCTL_INT = Downcalls.bind(LIBC, "ioctl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT),
            Linker.Option.firstVariadicArg(2), Downcalls.CAPTURE_ERRNO);
    private static final MethodHandle CLOSE = Downcalls.bind(LIBC, "close",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT), Downcalls.CAPTURE_ERRNO);

    private static final int PAGE_SIZE = pageSizeUncached();

    private LibC() {
    }

    public static int pageSize() {
        return PAGE_SIZE;
    }

    private static int pageSizeUncached() {
        try {
            return (int) GETPAGESIZE.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Anonymous private read-write mapping; returns its base address. Pages are not touched. */
    public static long mmapAnonymous(long length, boolean noReserve) {
        int flags = MAP_PRIVATE | MAP_ANONYMOUS | (noReserve ? MAP_NORESERVE : 0);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Downcalls.newCapture(arena);
            MemorySegment address = (MemorySegment) MMAP.invokeExact(capture, MemorySegment.NULL, length,
                    PROT_READ | PROT_WRITE, flags, -1, 0L);
            if (address.address() == MAP_FAILED) {
                throw new NativeCallException("mmap", Downcalls.errno(capture), "length " + length + " bytes");
            }
            return address.address();
        } catch (NativeCallException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static void munmap(long address, long length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Downcalls.newCapture(arena);
            int rc = (int) MUNMAP.invokeExact(capture, MemorySegment.ofAddress(address), length);
            if (rc != 0) {
                throw new NativeCallException("munmap", Downcalls.errno(capture),
                        "address 0x" + Long.toHexString(address) + ", length " + length);
            }
        } catch (NativeCallException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * {@code malloc(bytes)}: memory that is not zeroed (unlike {@code Arena.allocate}), for buffers that are
     * written before they are read. Throws {@link OutOfMemoryError} when none is left.
     */
    public static long malloc(long bytes) {
        try {
            MemorySegment address = (MemorySegment) MALLOC.invokeExact(bytes);
            if (address.address() == 0) {
                throw new OutOfMemoryError("malloc of " + bytes + " bytes failed");
            }
            return address.address();
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static void free(long address) {
        try {
            FREE.invokeExact(MemorySegment.ofAddress(address));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static void madvise(long address, long length, int advice) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Downcalls.newCapture(arena);
            int rc = (int) MADVISE.invokeExact(capture, MemorySegment.ofAddress(address), length, advice);
            if (rc != 0) {
                throw new NativeCallException("madvise", Downcalls.errno(capture), "advice " + advice);
            }
        } catch (NativeCallException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Affinity of the calling thread (pid 0 means the caller) as a raw cpu_set_t of {@code maskBytes} bytes. */
    public static long[] schedGetAffinity(int maskBytes) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Downcalls.newCapture(arena);
            MemorySegment mask = arena.allocate(maskBytes, 8);
            int rc = (int) SCHED_GETAFFINITY.invokeExact(capture, 0, (long) maskBytes, mask);
            if (rc != 0) {
                throw new NativeCallException("sched_getaffinity", Downcalls.errno(capture),
                        "mask of " + maskBytes + " bytes");
            }
            return mask.toArray(JAVA_LONG);
        } catch (NativeCallException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Restricts the calling thread to the CPUs set in {@code words} (a cpu_set_t as longs). */
    public static void schedSetAffinity(long[] words) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Downcalls.newCapture(arena);
            MemorySegment mask = arena.allocateFrom(JAVA_LONG, words);
            int rc = (int) SCHED_SETAFFINITY.invokeExact(capture, 0, mask.byteSize(), mask);
            if (rc != 0) {
                throw new NativeCallException("sched_setaffinity", Downcalls.errno(capture), null);
            }
        } catch (NativeCallException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int schedGetCpu() {
        try {
            return (int) SCHED_GETCPU.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Returns the new file descriptor, or {@code -errno} (never throws for kernel refusals: callers report them). */
    public static int perfEventOpen(MemorySegment attr, int pid, int cpu, int groupFd, long flags) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Downcalls.newCapture(arena);
            long fd = (long) SYSCALL_PERF_EVENT_OPEN.invokeExact(capture, SYS_PERF_EVENT_OPEN, attr, pid, cpu,
                    groupFd, flags);
            return fd < 0 ? -Downcalls.errno(capture) : (int) fd;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Reads one 64-bit value from {@code fd} into a caller-provided 8-byte buffer (no allocation). */
    public static long readLong(int fd, MemorySegment buffer, MemorySegment capture) {
        try {
            long n = (long) READ.invokeExact(capture, fd, buffer, 8L);
            if (n != 8) {
                throw new NativeCallException("read", n < 0 ? Downcalls.errno(capture) : Errno.EIO,
                        "fd " + fd + " returned " + n + " bytes");
            }
            return buffer.get(JAVA_LONG, 0);
        } catch (NativeCallException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static void ioctl(int fd, long request, int argument) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Downcalls.newCapture(arena);
            int rc = (int) IOCTL_INT.invokeExact(capture, fd, request, argument);
            if (rc != 0) {
                throw new NativeCallException("ioctl", Downcalls.errno(capture),
                        "fd " + fd + ", request 0x" + Long.toHexString(request));
            }
        } catch (NativeCallException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static void close(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Downcalls.newCapture(arena);
            int rc = (int) CLOSE.invokeExact(capture, fd);
            if (rc != 0) {
                throw new NativeCallException("close", Downcalls.errno(capture), "fd " + fd);
            }
        } catch (NativeCallException e) {
            throw e;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static String strerror(int errno) {
        try {
            MemorySegment text = (MemorySegment) STRERROR.invokeExact(Math.abs(errno));
            return text.equals(MemorySegment.NULL) ? "unknown error" : text.reinterpret(1024).getString(0);
        } catch (Throwable t) {
            return "unknown error";
        }
    }

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException("unexpected checked exception from a downcall", t);
    }
}
