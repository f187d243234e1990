package io.locusdb.natives.memory;

import java.util.List;

/**
 * Where the pages of a {@link NodeSegment} may live, in the logical node ids of the owning topology. Applied with
 * {@code mbind} before the first touch, so the kernel places each page as it is faulted in.
 */
public sealed interface MemoryPolicy {

    /** Every page on {@code node}; allocation fails rather than spill (MPOL_BIND). */
    record Bind(int node) implements MemoryPolicy {
    }

    /** Pages round-robin over {@code nodes} by page offset (MPOL_INTERLEAVE). */
    record Interleave(List<Integer> nodes) implements MemoryPolicy {
        public Interleave {
            if (nodes.isEmpty()) {
                throw new IllegalArgumentException("interleave needs at least one node");
            }
            nodes = List.copyOf(nodes);
        }
    }

    /** Pages on {@code node} while it has free memory, elsewhere otherwise (MPOL_PREFERRED). */
    record Preferred(int node) implements MemoryPolicy {
    }

    /** Pages on the node of the CPU that first touches them (MPOL_LOCAL): the operating system's default. */
    record Local() implements MemoryPolicy {
    }

    static MemoryPolicy bind(int node) {
        return new Bind(node);
    }

    static MemoryPolicy interleave(int... nodes) {
        return new Interleave(java.util.Arrays.stream(nodes).boxed().toList());
    }

    static MemoryPolicy preferred(int node) {
        return new Preferred(node);
    }

    static MemoryPolicy local() {
        return new Local();
    }
}
