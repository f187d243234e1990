package io.locusdb.natives.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A configured topology from a spec string, for pinning LocusDB to a chosen layout (benchmarks, containers with odd
 * cpusets, experiments). Grammar:
 *
 * <pre>
 *   spec      = node *( ";" node ) [ ";" "distances=" int *( "," int ) ]
 *   node      = cpulist [ "@" physical-node ] [ ":" size ]        size: bytes with optional K/M/G/T suffix
 * </pre>
 *
 * Example: {@code 0-7@0;8-15@1;distances=10,21,21,10}. Without {@code @}, a node's memory goes to the physical
 * node of its first CPU; without distances, 10 on the diagonal and 20 elsewhere. Every CPU must be one the process
 * may use, and every physical node one it may allocate from.
 */
public final class TopologySpec {
    private TopologySpec() {
    }

    public static Topology parse(String spec, Topology base) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("empty topology spec (expected e.g. '0-7@0;8-15@1')");
        }
        List<String> nodeSpecs = new ArrayList<>();
        String distanceSpec = null;
        for (String part : spec.split(";")) {
            String p = part.trim();
            if (p.startsWith("distances=")) {
                if (distanceSpec != null) {
                    throw new IllegalArgumentException("topology spec '" + spec + "' gives distances twice");
                }
                distanceSpec = p.substring("distances=".length());
            } else if (!p.isEmpty()) {
                if (distanceSpec != null) {
                    throw new IllegalArgumentException("topology spec '" + spec
                            + "': distances must come after the nodes");
                }
                nodeSpecs.add(p);
            }
        }
        if (nodeSpecs.isEmpty()) {
            throw new IllegalArgumentException("topology spec '" + spec + "' names no node");
        }
        List<NumaNode> nodes = new ArrayList<>();
        for (int i = 0; i < nodeSpecs.size(); i++) {
            nodes.add(parseNode(i, nodeSpecs.get(i), spec, base));
        }
        int n = nodes.size();
        int[][] distances = new int[n][n];
        if (distanceSpec == null) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    distances[i][j] = i == j ? 10 : 20;
                }
            }
        } else {
            String[] values = distanceSpec.split(",");
            if (values.length != n * n) {
                throw new IllegalArgumentException("topology spec '" + spec + "': " + n + " nodes need " + (n * n)
                        + " distances, got " + values.length);
            }
            for (int k = 0; k < values.length; k++) {
                int d = parseInt(values[k].trim(), "distance", spec);
                if (d <= 0) {
                    throw new IllegalArgumentException("topology spec '" + spec + "': distance " + d
                            + " must be positive");
                }
                distances[k / n][k % n] = d;
            }
        }
        return new Topology(TopologyKind.CONFIGURED, nodes, distances, "from spec '" + spec + "'");
    }

    private static NumaNode parseNode(int id, String text, String spec, Topology base) {
        String rest = text;
        Long size = null;
        int colon = rest.indexOf(':');
        if (colon >= 0) {
            size = parseSize(rest.substring(colon + 1).trim(), spec);
            rest = rest.substring(0, colon);
        }
        Integer physical = null;
        int at = rest.indexOf('@');
        if (at >= 0) {
            physical = parseInt(rest.substring(at + 1).trim(), "physical node", spec);
            rest = rest.substring(0, at);
        }
        CpuSet cpus = CpuSet.parse(rest);
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("topology spec '" + spec + "': node " + id + " has no CPUs");
        }
        CpuSet outside = cpus.intersect(base.cpus());
        if (!outside.equals(cpus)) {
            CpuSet missing = CpuSet.of(cpus.stream().filter(c -> !base.cpus().contains(c)).toArray());
            throw new IllegalArgumentException("topology spec '" + spec + "': CPUs " + missing
                    + " are not available to this process (allowed: " + base.cpus() + ")");
        }
        int memoryNode = physical != null ? physical : base.physicalNodeOf(base.nodeOfCpu(cpus.first()));
        int[] backing = base.nodesOnPhysical(memoryNode);
        if (backing.length == 0) {
            throw new IllegalArgumentException("topology spec '" + spec + "': physical node " + memoryNode
                    + " is not available to this process");
        }
        NumaNode real = base.node(backing[0]);
        long memory = size != null ? size : real.memoryBytes();
        return new NumaNode(id, memoryNode, cpus, memory, Math.min(memory, real.freeBytes()));
    }

    private static int parseInt(String text, String what, String spec) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("topology spec '" + spec + "': bad " + what + " '" + text + "'");
        }
    }

    static long parseSize(String text, String spec) {
        String t = text.toUpperCase(Locale.ROOT);
        long unit = 1;
        if (!t.isEmpty()) {
            switch (t.charAt(t.length() - 1)) {
                case 'K' -> unit = 1L << 10;
                case 'M' -> unit = 1L << 20;
                case 'G' -> unit = 1L << 30;
                case 'T' -> unit = 1L << 40;
                default -> unit = 1;
            }
        }
        String digits = unit == 1 ? t : t.substring(0, t.length() - 1);
        try {
            long value = Long.parseLong(digits);
            if (value < 0) {
                throw new NumberFormatException();
            }
            return Math.multiplyExact(value, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("topology spec '" + spec + "': bad memory size '" + text
                    + "' (expected e.g. 512M or 4G)");
        }
    }
}
