package io.locusdb.bench.sim.eris;

/**
 * Figure 9's model: every core scans its share of a column, with the column's memory on one node, interleaved over
 * all nodes, or (ERIS) each AEU's partition in its own node's memory. A core streams at its bandwidth to where the
 * data is ({@link ErisMachine#coreBandwidth}); a node's memory serves at most its local bandwidth, and what a node
 * reads from other nodes passes the links on the way ({@link ErisMachine#remoteBandwidth}).
 */
final class ScanModel {
    private ScanModel() {
    }

    /** Bytes per second: {single node, interleaved, ERIS}. */
    static double[] bandwidth(ErisMachine m) {
        int n = m.nodes();
        double eris = 0;
        double interleaved = 0;
        double singleLocal = 0;
        double singleRemote = 0;
        for (int from = 0; from < n; from++) {
            eris += Math.min(m.coresPerNode() * m.coreBandwidth(from, from), m.bandwidth()[0]);
            // A core reading every node in turn spends the same bytes at each: its rate is the harmonic mean.
            double timePerByte = 0;
            for (int to = 0; to < n; to++) {
                timePerByte += 1.0 / (n * m.coreBandwidth(from, to));
            }
            double demand = m.coresPerNode() / timePerByte;
            double remote = demand * (n - 1.0) / n;
            double scale = remote > m.remoteBandwidth(from) ? m.remoteBandwidth(from) / remote : 1;
            interleaved += Math.min(demand * scale, m.bandwidth()[0]);
            double fromZero = m.coresPerNode() * m.coreBandwidth(from, 0);
            if (from == 0) {
                singleLocal = fromZero;
            } else {
                singleRemote += fromZero;
            }
        }
        double single = Math.min(m.bandwidth()[0], singleLocal + Math.min(singleRemote, m.linkBandwidth()));
        return new double[] {single, interleaved, eris};
    }
}
