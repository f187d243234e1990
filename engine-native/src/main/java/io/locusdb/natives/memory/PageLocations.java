package io.locusdb.natives.memory;

import io.locusdb.natives.topology.Topology;
import java.util.Arrays;
import java.util.Locale;

/**
 * Where the pages of a memory range are, as reported by {@code move_pages} with no target nodes. Counts are per
 * physical node; per-node questions take logical node ids of the topology. On a fake topology several virtual
 * nodes share one physical node, so {@link #pagesOnNode(int)} counts the pages of all of them.
 *
 * @param known            false when the kernel could not be asked (no libnuma): all counts are then zero
 * @param totalPages       pages in the range
 * @param pagesByPhysical  present pages per physical node id
 * @param notPresent       pages never touched (or swapped out): no node yet
 * @param failed           pages the query failed for (other errors)
 */
public record PageLocations(boolean known, long totalPages, long[] pagesByPhysical, long notPresent, long failed,
                            Topology topology) {

    public static PageLocations unknown(long totalPages, Topology topology) {
        return new PageLocations(false, totalPages, new long[0], 0, 0, topology);
    }

    public long presentPages() {
        return Arrays.stream(pagesByPhysical).sum();
    }

    public long pagesOnPhysical(int physical) {
        return physical >= 0 && physical < pagesByPhysical.length ? pagesByPhysical[physical] : 0;
    }

    public long pagesOnNode(int node) {
        return pagesOnPhysical(topology.physicalNodeOf(node));
    }

    /** Share of the present pages that are on {@code node}; 0 when nothing is present. */
    public double fractionOnNode(int node) {
        long present = presentPages();
        return present == 0 ? 0.0 : (double) pagesOnNode(node) / present;
    }

    @Override
    public String toString() {
        if (!known) {
            return "PageLocations[unknown: NUMA placement unavailable, " + totalPages + " pages]";
        }
        StringBuilder out = new StringBuilder("PageLocations[" + totalPages + " pages:");
        for (int p = 0; p < pagesByPhysical.length; p++) {
            if (pagesByPhysical[p] > 0) {
                out.append(String.format(Locale.ROOT, " physical node %d=%d", p, pagesByPhysical[p]));
            }
        }
        if (notPresent > 0) {
            out.append(" not-present=").append(notPresent);
        }
        if (failed > 0) {
            out.append(" failed=").append(failed);
        }
        if (topology.isFake()) {
            out.append(" (fake topology: virtual nodes share physical nodes)");
        }
        return out.append(']').toString();
    }
}
