package io.locusdb.core.storage.table;

import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.memory.NodeSegment;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.util.ArrayList;
import java.util.List;

/**
 * The memory of one table part: a shared arena and the node-bound segments allocated in it under the part's
 * placement. Closing it unmaps every segment at once.
 */
public final class PartMemory implements SegmentAllocator, AutoCloseable {
    /**
     * Segments from this size up (large columns' codes, dictionaries of many values) are mapped on transparent huge
     * pages. A dictionary is read in random order by materialization: looking up 6M random rows in an 8 MB one
     * (lineitem's prices at SF1) took 19 ns a row on 4 KiB pages, mostly TLB misses, and 12 ns on huge pages (AMD
     * EPYC Zen 3). Smaller segments would waste too much of their last 2 MiB page.
     */
    static final long HUGE_PAGE_THRESHOLD = 2 * NodeMemory.HUGE_PAGE_SIZE;
    private final NodeMemory memory;
    private volatile PartPlacement placement;
    private final Arena arena = Arena.ofShared();
    private final List<NodeSegment> segments = new ArrayList<>();
    private boolean closed;

    public PartMemory(NodeMemory memory, PartPlacement placement) {
        this.memory = memory;
        this.placement = placement;
    }

    public PartPlacement placement() {
        return placement;
    }

    @Override
    public synchronized MemorySegment allocate(long byteSize, long byteAlignment) {
        if (closed) {
            throw new IllegalStateException("part memory is closed");
        }
        if (byteAlignment > memory.pageSize()) {
            throw new IllegalArgumentException("alignment " + byteAlignment + " exceeds a page");
        }
        NodeSegment segment = memory.allocate(byteSize, placement.memoryPolicy(), arena,
                byteSize >= HUGE_PAGE_THRESHOLD);
        segments.add(segment);
        return segment.segment().asSlice(0, byteSize);
    }

    /** Records that the segments were moved in place to another node (MIGRATE_PAGES). */
    public void rehome(PartPlacement newPlacement) {
        this.placement = newPlacement;
    }

    public synchronized List<NodeSegment> segments() {
        return List.copyOf(segments);
    }

    /** Bytes mapped for this part (whole pages). */
    public synchronized long mappedBytes() {
        return segments.stream().mapToLong(NodeSegment::mappedBytes).sum();
    }

    public NodeMemory nodeMemory() {
        return memory;
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            arena.close();
        }
    }
}
