package io.locusdb.natives.memory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A page-aligned off-heap segment allocated by {@link NodeMemory} under a {@link MemoryPolicy}. Its lifetime is the
 * arena it was allocated in: closing the arena unmaps it. The policy changes when the segment is moved.
 */
public final class NodeSegment {
    private final MemorySegment segment;
    private final long mappedBytes;
    private final boolean hugePages;
    private volatile MemoryPolicy policy;
    // Shared with the arena's cleanup action, which must not reach the segment (see NodeMemory.allocate).
    final UsageAccount account;

    NodeSegment(MemorySegment segment, long mappedBytes, boolean hugePages, MemoryPolicy policy,
                UsageAccount account) {
        this.segment = segment;
        this.mappedBytes = mappedBytes;
        this.hugePages = hugePages;
        this.policy = policy;
        this.account = account;
    }

    /** Bytes a segment contributes to each logical node's usage; replaced as a whole when it moves. */
    static final class UsageAccount {
        long[] bytesByNode;

        UsageAccount(long[] bytesByNode) {
            this.bytesByNode = bytesByNode;
        }
    }

    public MemorySegment segment() {
        return segment;
    }

    public long address() {
        return segment.address();
    }

    public long byteSize() {
        return segment.byteSize();
    }

    /** Bytes mapped, rounded up to whole (huge) pages. */
    public long mappedBytes() {
        return mappedBytes;
    }

    public boolean hugePages() {
        return hugePages;
    }

    public MemoryPolicy policy() {
        return policy;
    }

    void policy(MemoryPolicy newPolicy) {
        this.policy = newPolicy;
    }

    /**
     * Faults every page in for writing now, on the nodes the policy picks, without changing the contents. Loaders
     * call it to fix placement up front instead of on the first scan. An atomic add of zero per page: a plain
     * read-then-write of the same value is a dead store the JIT may remove (and a read alone maps the shared zero
     * page, placing nothing).
     */
    public void touchPages(int pageSize) {
        for (long offset = 0; offset + Long.BYTES <= segment.byteSize(); offset += pageSize) {
            long ignored = (long) TOUCH.getAndAdd(segment, offset, 0L);
        }
    }

    private static final java.lang.invoke.VarHandle TOUCH = ValueLayout.JAVA_LONG.varHandle();

    @Override
    public String toString() {
        return "NodeSegment[0x" + Long.toHexString(address()) + ", " + byteSize() + " bytes, " + policy
                + (hugePages ? ", huge pages" : "") + "]";
    }
}
