package io.locusdb.bench.sim.eris;

/**
 * Figure 8's model: lookups and upserts in a prefix tree (8-bit spans, dense keys: a node is 256 slots of 8 bytes)
 * done by every core, either in one index shared by all threads with its memory interleaved over the nodes, or in
 * ERIS, where each AEU owns the tree of its key range in its node's memory and lookups reach it as routed commands.
 *
 * <p>What decides the outcome (paper §4.2.3) is modelled, nothing else: per lookup one cache line per tree level;
 * a level hits the last-level cache when the levels above it and itself fit in the cache that serves them (the
 * shared index: one node's cache, which holds the same hot lines as every other node's; ERIS: the node's cache
 * holds only its AEUs' trees, a 1/nodes share of the keys); a miss costs the latency to where the line lives (the
 * average over all nodes for interleaved memory, local for ERIS). A lookup's own misses are a chain, but an
 * out-of-order core overlaps successive independent lookups ({@value #OUT_OF_ORDER_OVERLAP} in flight: its
 * reorder window holds about one and a half tree walks); ERIS also interleaves the walks of a batch in software,
 * doubling that, and pays for routing each command. Bandwidth of memory and links caps both. The constants below
 * are assumptions; the note of issue 43 says which were revised after a first comparison with the paper.
 */
final class IndexModel {
    /** Work per lookup besides memory accesses (splitting the key, the node walk). */
    static final double CPU_NANOS = 60;
    /** An LLC hit. */
    static final double HIT_NANOS = 15;
    /** Routing one command: the outgoing buffer, its share of the batch copy, the grouping in the AEU loop. */
    static final double ROUTING_NANOS = 40;
    /** Lookups an out-of-order core keeps in flight when they follow each other independently. */
    static final double OUT_OF_ORDER_OVERLAP = 1.5;
    /** Lookups in flight in an AEU that interleaves the walks of a batch. */
    static final double ERIS_OVERLAP = 2 * OUT_OF_ORDER_OVERLAP;
    /** A routed command's bytes (type, key, callback, batch header share). */
    static final double COMMAND_BYTES = 32;
    /** An atomic update of a shared line: the compare-and-set and taking the line from another cache. */
    static final double SHARED_UPSERT_NANOS = 40;
    static final double LINE = 64;

    private IndexModel() {
    }

    /** Operations per second of the whole machine. */
    record Throughput(double sharedLookups, double sharedUpserts, double erisLookups, double erisUpserts) {
    }

    static Throughput throughput(ErisMachine m, double keys) {
        double[] shared = misses(keys, m.llcBytes());
        double[] eris = misses(keys / m.nodes(), m.llcBytes());
        double interleaved = 0;
        double remoteLatency = 0;
        for (int n = 0; n < m.nodes(); n++) {
            interleaved += m.interleavedLatency(n) / m.nodes();
            double r = 0;
            for (int o = 0; o < m.nodes(); o++) {
                r += o == n ? 0 : m.latencyNanos()[m.hops()[n][o]] / Math.max(1, m.nodes() - 1);
            }
            remoteLatency += r / m.nodes();
        }
        double sharedLookup = CPU_NANOS + shared[0] * HIT_NANOS + shared[1] * interleaved / OUT_OF_ORDER_OVERLAP;
        double sharedUpsert = sharedLookup + SHARED_UPSERT_NANOS + remoteLatency * (m.nodes() - 1.0) / m.nodes();
        double erisLookup = CPU_NANOS + ROUTING_NANOS + eris[0] * HIT_NANOS
                + eris[1] * m.latencyNanos()[0] / ERIS_OVERLAP;
        double erisUpsert = erisLookup + HIT_NANOS;
        double remoteShare = (m.nodes() - 1.0) / m.nodes();
        double memory = m.nodes() * m.bandwidth()[0];
        double links = 0;
        for (int n = 0; n < m.nodes(); n++) {
            links += m.remoteBandwidth(n);
        }
        return new Throughput(
                cap(m.cores() * 1e9 / sharedLookup, shared[1] * LINE, memory, shared[1] * LINE * remoteShare, links),
                cap(m.cores() * 1e9 / sharedUpsert, 2 * shared[1] * LINE, memory, 2 * shared[1] * LINE * remoteShare,
                        links),
                cap(m.cores() * 1e9 / erisLookup, eris[1] * LINE, memory, COMMAND_BYTES * remoteShare, links),
                cap(m.cores() * 1e9 / erisUpsert, 2 * eris[1] * LINE, memory, COMMAND_BYTES * remoteShare, links));
    }

    private static double cap(double rate, double memoryBytes, double memory, double linkBytes, double links) {
        double r = rate;
        if (memoryBytes > 0) {
            r = Math.min(r, memory / memoryBytes);
        }
        if (linkBytes > 0) {
            r = Math.min(r, links / linkBytes);
        }
        return r;
    }

    /**
     * {hits, misses} per lookup in a tree of {@code keys} dense keys when {@code cache} bytes serve it: levels fill
     * the cache from the root down; a level that fits in part hits in proportion.
     */
    static double[] misses(double keys, double cache) {
        int levels = Math.max(1, (int) Math.ceil(Math.log(Math.max(2, keys)) / Math.log(256)));
        double left = cache;
        double hits = 0;
        double misses = 0;
        for (int l = levels - 1; l >= 0; l--) {
            // Level l from the leaves: the leaves hold a slot per key; each level up 256 times fewer.
            double bytes = Math.max(LINE, keys * 8 / Math.pow(256, l));
            double share = Math.min(1, Math.max(0, left / bytes));
            hits += share;
            misses += 1 - share;
            left -= Math.min(left, bytes);
        }
        return new double[] {hits, misses};
    }
}
