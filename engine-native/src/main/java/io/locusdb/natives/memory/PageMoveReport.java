package io.locusdb.natives.memory;

import java.util.Map;

/**
 * The outcome of moving a segment to another node.
 *
 * @param targetNode      logical node asked for
 * @param totalPages      pages in the segment
 * @param moved           pages the kernel migrated
 * @param alreadyOnTarget present pages that were already on the target's physical node
 * @param notPresent      untouched pages: nothing to move; the new policy places them on the target when touched
 * @param failed          pages that stayed where they were
 * @param failures        failed pages by errno name (e.g. EBUSY for pages pinned by I/O or THP tails)
 * @param nanos           wall time of the whole operation
 * @param note            caveats, e.g. a fake topology whose virtual nodes share one physical node
 */
public record PageMoveReport(int targetNode, long totalPages, long moved, long alreadyOnTarget, long notPresent,
                             long failed, Map<String, Long> failures, long nanos, String note) {

    public PageMoveReport {
        failures = Map.copyOf(failures);
    }

    public boolean complete() {
        return failed == 0;
    }

    /** Cost per migrated page in microseconds; NaN when nothing moved. */
    public double microsPerMovedPage() {
        return moved == 0 ? Double.NaN : nanos / 1000.0 / moved;
    }
}
