package io.locusdb.core.storage.table;

import io.locusdb.natives.memory.MemoryPolicy;
import io.locusdb.natives.topology.Topology;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * Initial placement strategies of the NUMA-effects study (Kiefer et al.), as policies a loader applies per part.
 */
public sealed interface InitialPlacement {
    PartPlacement place(int partIndex, Topology topology);

    /** Pages land on the node of the thread that builds the part (the operating system default). */
    record FirstTouch() implements InitialPlacement {
        @Override
        public PartPlacement place(int partIndex, Topology topology) {
            return new PartPlacement(partIndex % topology.nodeCount(), MemoryPolicy.local());
        }
    }

    /** Part i bound to node i mod n: the balanced default for a partitioned table. */
    record RoundRobin() implements InitialPlacement {
        @Override
        public PartPlacement place(int partIndex, Topology topology) {
            return PartPlacement.boundTo(partIndex % topology.nodeCount());
        }
    }

    /** Every part bound to one node. */
    record Aligned(int node) implements InitialPlacement {
        @Override
        public PartPlacement place(int partIndex, Topology topology) {
            topology.checkNode(node);
            return PartPlacement.boundTo(node);
        }
    }

    /** Pages of every part interleaved over all nodes; tasks still go round-robin. */
    record Interleaved() implements InitialPlacement {
        @Override
        public PartPlacement place(int partIndex, Topology topology) {
            return new PartPlacement(partIndex % topology.nodeCount(),
                    MemoryPolicy.interleave(IntStream.range(0, topology.nodeCount()).toArray()));
        }
    }

    /** Data of part i on node i+1 while its tasks run on node i: deliberately remote, for experiments. */
    record OneAhead() implements InitialPlacement {
        @Override
        public PartPlacement place(int partIndex, Topology topology) {
            int home = partIndex % topology.nodeCount();
            return new PartPlacement(home, MemoryPolicy.bind((home + 1) % topology.nodeCount()));
        }
    }

    /** Parses {@code first-touch | round-robin | aligned[:N] | interleave | 1-ahead}. */
    static InitialPlacement parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.startsWith("aligned")) {
            String node = t.contains(":") ? t.substring(t.indexOf(':') + 1) : "0";
            try {
                return new Aligned(Integer.parseInt(node.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad placement '" + text + "': aligned takes a node, e.g. aligned:1");
            }
        }
        return switch (t) {
            case "first-touch", "default" -> new FirstTouch();
            case "round-robin" -> new RoundRobin();
            case "interleave", "interleaved" -> new Interleaved();
            case "1-ahead", "one-ahead" -> new OneAhead();
            default -> throw new IllegalArgumentException("unknown placement '" + text
                    + "' (first-touch, round-robin, aligned[:N], interleave, 1-ahead)");
        };
    }
}
