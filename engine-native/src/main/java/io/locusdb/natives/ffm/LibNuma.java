package io.locusdb.natives.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * Hand-written FFM bindings to {@code libnuma.so.1}. glibc does not export {@code mbind}, {@code get_mempolicy} or
 * {@code move_pages}; libnuma does (as thin syscall wrappers), so they are bound from here.
 *
 * <p>The library is optional: without it (or when {@code numa_available() < 0}) {@link #isAvailable()} is false
 * and callers fall back to a single-node view. Nothing here throws at class initialisation.
 */
public final class LibNuma {
    public static final int MPOL_DEFAULT = 0;
    public static final int MPOL_PREFERRED = 1;
    public static final int MPOL_BIND = 2;
    public static final int MPOL_INTERLEAVE = 3;
    public static final int MPOL_LOCAL = 4;

    public static final int MPOL_MF_STRICT = 1;
    public static final int MPOL_MF_MOVE = 1 << 1;
    public static final int MPOL_MF_MOVE_ALL = 1 << 2;

    public static final int MPOL_F_NODE = 1;
    public static final int MPOL_F_ADDR = 1 << 1;

    /** Node masks we pass hold this many bits: the largest MAX_NUMNODES of mainstream kernels. */
    public static final int MASK_BITS = 1024;
    private static final int MASK_LONGS = MASK_BITS / 64;

    private static final String LIBRARY = "libnuma.so.1";
    /** Set to true to run as if libnuma were missing (tests of the fallback path, or to rule NUMA out). */
    public static final String DISABLE_PROPERTY = "locus.numa.disable";
    private static final String UNAVAILABLE_REASON;

    private static final MethodHandle NUMA_AVAILABLE;
    private static final MethodHandle NUMA_MAX_NODE;
    private static final MethodHandle NUMA_NUM_CONFIGURED_CPUS;
    private static final MethodHandle NUMA_NODE_OF_CPU;
    private static final MethodHandle NUMA_DISTANCE;
    private static final MethodHandle NUMA_NODE_SIZE64;
    private static final MethodHandle MBIND;
    private static final MethodHandle GET_MEMPOLICY;
    private static final MethodHandle MOVE_PAGES;

    static {
        MethodHandle available = null;
        MethodHandle maxNode = null;
        MethodHandle configuredCpus = null;
        MethodHandle nodeOfCpu = null;
        MethodHandle distance = null;
        MethodHandle nodeSize = null;
        MethodHandle mbind = null;
        MethodHandle getMempolicy = null;
        MethodHandle movePages = null;
        String reason = null;
        try {
            if (Boolean.getBoolean(DISABLE_PROPERTY)) {
                throw new Disabled();
            }
            // Global arena: the library stays loaded for the life of the process, like any linked library.
            SymbolLookup numa = SymbolLookup.libraryLookup(LIBRARY, Arena.global());
            available = Downcalls.bind(numa, "numa_available", FunctionDescriptor.of(JAVA_INT));
            maxNode = Downcalls.bind(numa, "numa_max_node", FunctionDescriptor.of(JAVA_INT));
            configuredCpus = Downcalls.bind(numa, "numa_num_configured_cpus", FunctionDescriptor.of(JAVA_INT));
            nodeOfCpu = Downcalls.bind(numa, "numa_node_of_cpu", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
            distance = Downcalls.bind(numa, "numa_distance", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
            nodeSize = Downcalls.bind(numa, "numa_node_size64", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS));
            mbind = Downcalls.bind(numa, "mbind",
                    FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT),
                    Downcalls.CAPTURE_ERRNO);
            getMempolicy = Downcalls.bind(numa, "get_mempolicy",
                    FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT),
                    Downcalls.CAPTURE_ERRNO);
            movePages = Downcalls.bind(numa, "move_pages",
                    FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, JAVA_INT),
                    Downcalls.CAPTURE_ERRNO);
            int rc = (int) available.invokeExact();
            if (rc < 0) {
                reason = "numa_available() returned " + rc + " (the kernel has no NUMA support or it is disabled)";
            }
        } catch (Disabled e) {
            reason = "disabled by -D" + DISABLE_PROPERTY + "=true";
        } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
            reason = LIBRARY + " could not be loaded (" + e.getMessage() + "); install the libnuma1 package";
        } catch (Throwable t) {
            reason = LIBRARY + " could not be initialised: " + t;
        }
        NUMA_AVAILABLE = available;
        NUMA_MAX_NODE = maxNode;
        NUMA_NUM_CONFIGURED_CPUS = configuredCpus;
        NUMA_NODE_OF_CPU = nodeOfCpu;
        NUMA_DISTANCE = distance;
        NUMA_NODE_SIZE64 = nodeSize;
        MBIND = mbind;
        GET_MEMPOLICY = getMempolicy;
        MOVE_PAGES = movePages;
        UNAVAILABLE_REASON = reason;
    }

    private LibNuma() {
    }

    private static final class Disabled extends RuntimeException {
        Disabled() {
            super(null, null, false, false);
        }
    }

    public static boolean isAvailable() {
        return UNAVAILABLE_REASON == null;
    }

    /** Why NUMA calls cannot be made here; null when they can. */
    public static String unavailableReason() {
        return UNAVAILABLE_REASON;
    }

    private static void requireAvailable(String function) {
        if (UNAVAILABLE_REASON != null) {
            throw new UnsupportedOperationException(function + " is unavailable: " + UNAVAILABLE_REASON);
        }
    }

    public static int maxNode() {
        requireAvailable("numa_max_node");
        try {
            return (int) NUMA_MAX_NODE.invokeExact();
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    public static int configuredCpus() {
        requireAvailable("numa_num_configured_cpus");
        try {
            return (int) NUMA_NUM_CONFIGURED_CPUS.invokeExact();
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /** The node of a CPU; -1 if the CPU does not exist. About 185 ns a call: callers cache the answer. */
    public static int nodeOfCpu(int cpu) {
        requireAvailable("numa_node_of_cpu");
        try {
            return (int) NUMA_NODE_OF_CPU.invokeExact(cpu);
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    public static int distance(int from, int to) {
        requireAvailable("numa_distance");
        try {
            return (int) NUMA_DISTANCE.invokeExact(from, to);
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /** {total, free} bytes of a node's memory; total is -1 for a node without memory. */
    public static long[] nodeSize(int node) {
        requireAvailable("numa_node_size64");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment free = arena.allocate(JAVA_LONG);
            long total = (long) NUMA_NODE_SIZE64.invokeExact(node, free);
            return new long[] {total, total < 0 ? 0 : free.get(JAVA_LONG, 0)};
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /** Sets the memory policy of {@code [address, address+length)}; {@code nodes} are physical node ids. */
    public static void mbind(long address, long length, int mode, int[] nodes, int flags) {
        requireAvailable("mbind");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Downcalls.newCapture(arena);
            MemorySegment mask = nodeMask(arena, nodes);
            // maxnode counts one more than the mask's bits: the kernel decrements it before use.
            long rc = (long) MBIND.invokeExact(capture, MemorySegment.ofAddress(address), length, mode, mask,
                    (long) MASK_BITS + 1, flags);
            if (rc != 0) {
                throw new NativeCallException("mbind", Downcalls.errno(capture),
                        "mode " + mode + ", nodes " + java.util.Arrays.toString(nodes) + ", flags " + flags
                                + ", length " + length);
            }
        } catch (NativeCallException e) {
            throw e;
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /** The physical node of the page containing {@code address} (faulting it in is the caller's business). */
    public static int nodeOfAddress(long address) {
        requireAvailable("get_mempolicy");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Downcalls.newCapture(arena);
            MemorySegment mode = arena.allocate(JAVA_INT);
            long rc = (long) GET_MEMPOLICY.invokeExact(capture, mode, MemorySegment.NULL, 0L,
                    MemorySegment.ofAddress(address), MPOL_F_NODE | MPOL_F_ADDR);
            if (rc != 0) {
                throw new NativeCallException("get_mempolicy", Downcalls.errno(capture),
                        "address 0x" + Long.toHexString(address));
            }
            return mode.get(JAVA_INT, 0);
        } catch (NativeCallException e) {
            throw e;
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /**
     * {@code move_pages(0, count, pages, nodes, status, flags)} for the calling process. With {@code nodes} null it
     * only reports where each page is. Per-page results (node or negative errno) land in {@code status}. Returns
     * the kernel's result: 0, or (since Linux 4.17) the number of pages it did not migrate, in which case the status
     * entries of pages it never reached are left as they were.
     */
    public static long movePages(long count, MemorySegment pages, MemorySegment nodes, MemorySegment status,
                                 int flags, MemorySegment capture) {
        requireAvailable("move_pages");
        try {
            long rc = (long) MOVE_PAGES.invokeExact(capture, 0, count, pages, nodes, status, flags);
            if (rc < 0) {
                throw new NativeCallException("move_pages", Downcalls.errno(capture), count + " pages");
            }
            return rc;
        } catch (NativeCallException e) {
            throw e;
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        }
    }

    /** A capture segment for {@link #movePages}; one per operation, not per batch. */
    public static MemorySegment newCapture(Arena arena) {
        return Downcalls.newCapture(arena);
    }

    private static MemorySegment nodeMask(Arena arena, int[] nodes) {
        long[] words = new long[MASK_LONGS];
        for (int node : nodes) {
            if (node < 0 || node >= MASK_BITS) {
                throw new IllegalArgumentException("node " + node + " is outside 0.." + (MASK_BITS - 1));
            }
            words[node >>> 6] |= 1L << (node & 63);
        }
        return arena.allocateFrom(JAVA_LONG, words);
    }
}
