package io.locusdb.natives.memory;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.locusdb.natives.ffm.Errno;
import io.locusdb.natives.ffm.LibC;
import io.locusdb.natives.ffm.LibNuma;
import io.locusdb.natives.ffm.NativeCallException;
import io.locusdb.natives.topology.Topology;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Node-bound off-heap memory. Segments are {@code mmap}ed, given their NUMA policy with {@code mbind} before any
 * page is touched ({@code Arena.allocate} zero-fills and so would place every page on the allocating thread's node
 * first), and unmapped when their arena closes. Also moves segments between nodes, reports where their pages are,
 * and keeps per-node usage.
 *
 * <p>Node ids are the logical ids of {@link #topology()}; on a fake or configured topology they are translated to
 * the physical nodes behind them. Without NUMA support policies are recorded but not applied, location queries
 * answer "unknown" and moves report that nothing could be done.
 */
public final class NodeMemory {
    public static final long HUGE_PAGE_SIZE = 2L << 20;
    /** Pages per move_pages call: bounds the scratch arrays (16 bytes a page) while amortising the syscall. */
    private static final int MOVE_BATCH_PAGES = 16 * 1024;
    /** A status value move_pages never writes (statuses are node ids or small negative errnos). */
    private static final int NOT_REPORTED = Integer.MIN_VALUE;

    private final Topology topology;
    private final boolean applyPolicies;
    private final int pageSize = LibC.pageSize();
    private final AtomicLongArray bytesByNode;
    private final AtomicLong liveSegments = new AtomicLong();
    private final PageMoves givenPageMoves;

    public NodeMemory(Topology topology) {
        this(topology, null);
    }

    /**
     * @param pageMoves whether {@code move_pages} may be used, as a container would answer (tests); null: this
     *                  process's own answer, probed once
     */
    public NodeMemory(Topology topology, PageMoves pageMoves) {
        this.topology = topology;
        this.applyPolicies = topology.placementSupported() && LibNuma.isAvailable();
        this.bytesByNode = new AtomicLongArray(topology.nodeCount());
        this.givenPageMoves = pageMoves;
    }

    public Topology topology() {
        return topology;
    }

    public int pageSize() {
        return pageSize;
    }

    /** True when policies and moves really act on the kernel's page placement. */
    public boolean appliesPolicies() {
        return applyPolicies;
    }

    /**
     * Whether {@link #move} and {@link #locate} may use {@code move_pages} here (a container's seccomp profile may
     * refuse it while it allows {@code mbind}).
     */
    public PageMoves pageMoves() {
        if (givenPageMoves != null) {
            return givenPageMoves;
        }
        return applyPolicies ? PageMoves.ofThisProcess()
                : new PageMoves(false, "NUMA placement unavailable: " + topology.note());
    }

    public NodeSegment allocate(long bytes, MemoryPolicy policy, Arena arena) {
        return allocate(bytes, policy, arena, false);
    }

    /**
     * Maps {@code bytes} (rounded up to whole pages) under {@code policy}, freed when {@code arena} closes. With
     * {@code hugePages} the range is 2 MiB aligned and advised for transparent huge pages.
     */
    public NodeSegment allocate(long bytes, MemoryPolicy policy, Arena arena, boolean hugePages) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("segment size must be positive, got " + bytes);
        }
        int[] physical = physicalNodes(policy);
        long granule = hugePages ? HUGE_PAGE_SIZE : pageSize;
        long length = roundUp(bytes, granule);
        long address = hugePages ? mapAligned(length) : LibC.mmapAnonymous(length, false);
        try {
            if (hugePages) {
                LibC.madvise(address, length, LibC.MADV_HUGEPAGE);
            }
            if (applyPolicies) {
                applyPolicy(address, length, policy, physical, 0);
            }
        } catch (RuntimeException e) {
            LibC.munmap(address, length);
            throw e;
        }
        NodeSegment.UsageAccount account = new NodeSegment.UsageAccount(attribute(policy, length));
        addUsage(account.bytesByNode, 1);
        liveSegments.incrementAndGet();
        // The cleanup must not reach the segment: for an automatic arena that would keep the arena reachable
        // from its own cleaner and leak the mapping. It knows the address, the length and the account only.
        MemorySegment segment;
        try {
            segment = MemorySegment.ofAddress(address).reinterpret(length, arena, ignored -> {
                synchronized (account) {
                    addUsage(account.bytesByNode, -1);
                }
                liveSegments.decrementAndGet();
                LibC.munmap(address, length);
            });
        } catch (RuntimeException e) {
            // E.g. the arena was closed meanwhile: nothing will ever free the mapping, so undo it here.
            addUsage(account.bytesByNode, -1);
            liveSegments.decrementAndGet();
            LibC.munmap(address, length);
            throw e;
        }
        return new NodeSegment(segment, length, hugePages, policy, account);
    }

    /**
     * Moves a segment to {@code targetNode}: re-binds its policy (so pages touched later land there too) and
     * migrates the resident pages that are elsewhere. Safe while other threads read the segment; the kernel
     * migrates page by page under its own locks.
     *
     * @throws PageMovesRefusedException where {@link #pageMoves()} says this process may not move pages (nothing
     *                                   changes then: callers copy the data to the target node instead)
     */
    public PageMoveReport move(NodeSegment segment, int targetNode) {
        topology.checkNode(targetNode);
        long totalPages = segment.mappedBytes() / pageSize;
        long start = System.nanoTime();
        if (!applyPolicies) {
            // Nothing moves, but the segment now belongs to the target node as far as the books go.
            long[] accounted = attribute(new MemoryPolicy.Bind(targetNode), segment.mappedBytes());
            synchronized (segment.account) {
                addUsage(segment.account.bytesByNode, -1);
                segment.account.bytesByNode = accounted;
                addUsage(accounted, 1);
            }
            return new PageMoveReport(targetNode, totalPages, 0, 0, 0, 0, Map.of(), System.nanoTime() - start,
                    "NUMA placement unavailable: " + topology.note());
        }
        PageMoves moves = pageMoves();
        if (!moves.permitted()) {
            throw new PageMovesRefusedException(moves.detail());
        }
        int physical = topology.physicalNodeOf(targetNode);
        MemoryPolicy newPolicy = new MemoryPolicy.Bind(targetNode);
        LibNuma.mbind(segment.address(), segment.mappedBytes(), LibNuma.MPOL_BIND, new int[] {physical}, 0);

        long moved = 0;
        long already = 0;
        long notPresent = 0;
        long failed = 0;
        Map<String, Long> failures = new TreeMap<>();
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment capture = LibNuma.newCapture(scratch);
            MemorySegment pages = scratch.allocate(ADDRESS, MOVE_BATCH_PAGES);
            MemorySegment movePages = scratch.allocate(ADDRESS, MOVE_BATCH_PAGES);
            MemorySegment nodes = scratch.allocate(JAVA_INT, MOVE_BATCH_PAGES);
            MemorySegment status = scratch.allocate(JAVA_INT, MOVE_BATCH_PAGES);
            for (int i = 0; i < MOVE_BATCH_PAGES; i++) {
                nodes.setAtIndex(JAVA_INT, i, physical);
            }
            for (long first = 0; first < totalPages; first += MOVE_BATCH_PAGES) {
                int count = (int) Math.min(MOVE_BATCH_PAGES, totalPages - first);
                fillPageAddresses(pages, segment.address() + first * pageSize, count);
                // Ask first, move second: only pages that are elsewhere are handed to the kernel, and the report
                // can tell migrated pages from pages that were already there.
                LibNuma.movePages(count, pages, MemorySegment.NULL, status, 0, capture);
                int toMove = 0;
                for (int i = 0; i < count; i++) {
                    int where = status.getAtIndex(JAVA_INT, i);
                    if (where == physical) {
                        already++;
                    } else if (where == -Errno.ENOENT) {
                        notPresent++;
                    } else if (where >= 0) {
                        movePages.setAtIndex(ADDRESS, toMove++, pages.getAtIndex(ADDRESS, i));
                    } else {
                        failed++;
                        failures.merge(Errno.name(where), 1L, Long::sum);
                    }
                }
                if (toMove == 0) {
                    continue;
                }
                // The kernel may stop a batch early and leave the rest of status untouched: pre-fill it so an
                // unwritten entry reads as "not moved" rather than as a stale answer from the query above.
                for (int i = 0; i < toMove; i++) {
                    status.setAtIndex(JAVA_INT, i, NOT_REPORTED);
                }
                LibNuma.movePages(toMove, movePages, nodes, status, LibNuma.MPOL_MF_MOVE, capture);
                for (int i = 0; i < toMove; i++) {
                    int where = status.getAtIndex(JAVA_INT, i);
                    if (where == NOT_REPORTED) {
                        failed++;
                        failures.merge("not attempted (kernel stopped the batch)", 1L, Long::sum);
                    } else if (where == physical) {
                        moved++;
                    } else if (where == -Errno.ENOENT) {
                        notPresent++;
                    } else {
                        failed++;
                        failures.merge(where < 0 ? Errno.name(where) : "stayed on node " + where, 1L, Long::sum);
                    }
                }
            }
        }
        long[] accounted = attribute(newPolicy, segment.mappedBytes());
        synchronized (segment.account) {
            addUsage(segment.account.bytesByNode, -1);
            segment.account.bytesByNode = accounted;
            addUsage(accounted, 1);
            segment.policy(newPolicy);
        }
        String note = topology.isFake() && already > 0 && moved == 0
                ? "fake topology: virtual node " + targetNode + " shares physical node " + physical
                : "";
        return new PageMoveReport(targetNode, totalPages, moved, already, notPresent, failed, failures,
                System.nanoTime() - start, note);
    }

    /**
     * Where the pages of {@code segment} are (any native segment; the range is widened to whole pages); unknown
     * where placement is unavailable or {@code move_pages}, which answers the question, is refused.
     */
    public PageLocations locate(MemorySegment segment) {
        long begin = segment.address() & -(long) pageSize;
        long end = roundUp(segment.address() + segment.byteSize(), pageSize);
        long totalPages = (end - begin) / pageSize;
        if (!applyPolicies || !pageMoves().permitted()) {
            return PageLocations.unknown(totalPages, topology);
        }
        long[] byPhysical = new long[Math.max(LibNuma.maxNode() + 1, 1)];
        long notPresent = 0;
        long failed = 0;
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment capture = LibNuma.newCapture(scratch);
            int batch = (int) Math.min(MOVE_BATCH_PAGES, Math.max(totalPages, 1));
            MemorySegment pages = scratch.allocate(ADDRESS, batch);
            MemorySegment status = scratch.allocate(JAVA_INT, batch);
            for (long first = 0; first < totalPages; first += batch) {
                int count = (int) Math.min(batch, totalPages - first);
                fillPageAddresses(pages, begin + first * pageSize, count);
                LibNuma.movePages(count, pages, MemorySegment.NULL, status, 0, capture);
                for (int i = 0; i < count; i++) {
                    int where = status.getAtIndex(JAVA_INT, i);
                    if (where >= 0 && where < byPhysical.length) {
                        byPhysical[where]++;
                    } else if (where == -Errno.ENOENT) {
                        notPresent++;
                    } else {
                        failed++;
                    }
                }
            }
        }
        return new PageLocations(true, totalPages, byPhysical, notPresent, failed, topology);
    }

    public NodeMemoryUsage usage() {
        long[] bytes = new long[bytesByNode.length()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = bytesByNode.get(i);
        }
        return new NodeMemoryUsage(bytes, liveSegments.get());
    }

    private void applyPolicy(long address, long length, MemoryPolicy policy, int[] physical, int flags) {
        switch (policy) {
            case MemoryPolicy.Bind b -> LibNuma.mbind(address, length, LibNuma.MPOL_BIND, physical, flags);
            case MemoryPolicy.Preferred p -> LibNuma.mbind(address, length, LibNuma.MPOL_PREFERRED, physical, flags);
            case MemoryPolicy.Interleave i -> LibNuma.mbind(address, length, LibNuma.MPOL_INTERLEAVE,
                    distinct(physical), flags);
            case MemoryPolicy.Local l -> {
                try {
                    LibNuma.mbind(address, length, LibNuma.MPOL_LOCAL, new int[0], flags);
                } catch (NativeCallException e) {
                    // Kernels before 3.8 lack MPOL_LOCAL; the default policy is local allocation too.
                    if (e.errno() != Errno.EINVAL) {
                        throw e;
                    }
                    LibNuma.mbind(address, length, LibNuma.MPOL_DEFAULT, new int[0], flags);
                }
            }
        }
    }

    private int[] physicalNodes(MemoryPolicy policy) {
        return switch (policy) {
            case MemoryPolicy.Bind b -> topology.physicalNodesOf(b.node());
            case MemoryPolicy.Preferred p -> topology.physicalNodesOf(p.node());
            case MemoryPolicy.Interleave i -> topology.physicalNodesOf(
                    i.nodes().stream().mapToInt(Integer::intValue).toArray());
            case MemoryPolicy.Local l -> new int[0];
        };
    }

    private long[] attribute(MemoryPolicy policy, long length) {
        long[] bytes = new long[topology.nodeCount()];
        switch (policy) {
            case MemoryPolicy.Bind b -> bytes[b.node()] = length;
            case MemoryPolicy.Preferred p -> bytes[p.node()] = length;
            case MemoryPolicy.Interleave i -> {
                List<Integer> nodes = i.nodes();
                long share = length / nodes.size();
                for (int node : nodes) {
                    bytes[node] += share;
                }
                bytes[nodes.getFirst()] += length - share * nodes.size();
            }
            case MemoryPolicy.Local l -> {
                int node = topology.nodeOfCpu(LibC.schedGetCpu());
                bytes[Math.max(node, 0)] = length;
            }
        }
        return bytes;
    }

    private void addUsage(long[] bytes, int sign) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] != 0) {
                bytesByNode.addAndGet(i, sign * bytes[i]);
            }
        }
    }

    private static long mapAligned(long length) {
        long raw = LibC.mmapAnonymous(length + HUGE_PAGE_SIZE, false);
        long aligned = roundUp(raw, HUGE_PAGE_SIZE);
        if (aligned > raw) {
            LibC.munmap(raw, aligned - raw);
        }
        long tail = raw + length + HUGE_PAGE_SIZE - (aligned + length);
        if (tail > 0) {
            LibC.munmap(aligned + length, tail);
        }
        return aligned;
    }

    private void fillPageAddresses(MemorySegment pages, long firstPage, int count) {
        for (int i = 0; i < count; i++) {
            pages.setAtIndex(ADDRESS, i, MemorySegment.ofAddress(firstPage + (long) i * pageSize));
        }
    }

    private static int[] distinct(int[] nodes) {
        return Arrays.stream(nodes).distinct().toArray();
    }

    private static long roundUp(long value, long granule) {
        return (value + granule - 1) / granule * granule;
    }
}
