package io.locusdb.natives.topology;

import java.util.Locale;

/**
 * Chooses the topology from a setting: {@code real} (default), {@code fake:N}, or {@code configured:SPEC}. The
 * setting comes from the {@code locus.topology} system property or the {@code LOCUS_TOPOLOGY} environment variable.
 */
public final class Topologies {
    public static final String PROPERTY = "locus.topology";
    public static final String ENVIRONMENT = "LOCUS_TOPOLOGY";

    private static volatile Topology discovered;

    private Topologies() {
    }

    /** The real topology, discovered once per process (discovery makes a few hundred libnuma calls). */
    public static Topology real() {
        Topology t = discovered;
        if (t == null) {
            synchronized (Topologies.class) {
                t = discovered;
                if (t == null) {
                    t = TopologyDiscovery.discover();
                    discovered = t;
                }
            }
        }
        return t;
    }

    /** One node covering the allowed CPUs, with policies recorded but not applied: how LocusDB runs without NUMA. */
    public static Topology unavailable(String reason) {
        return TopologyDiscovery.singleNode(ProcessLimits.allowedCpus(), reason);
    }

    public static Topology fake(int nodes) {
        return FakeTopology.split(real(), nodes);
    }

    public static Topology configured(String spec) {
        return TopologySpec.parse(spec, real());
    }

    /** The topology named by the system property, else the environment, else the real one. */
    public static Topology fromEnvironment() {
        String setting = System.getProperty(PROPERTY);
        if (setting == null || setting.isBlank()) {
            setting = System.getenv(ENVIRONMENT);
        }
        return fromSetting(setting);
    }

    public static Topology fromSetting(String setting) {
        if (setting == null || setting.isBlank() || setting.trim().equalsIgnoreCase("real")) {
            return real();
        }
        String s = setting.trim();
        String lower = s.toLowerCase(Locale.ROOT);
        if (lower.startsWith("fake:")) {
            String count = s.substring(5).trim();
            try {
                return fake(Integer.parseInt(count));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad topology setting '" + setting
                        + "': fake needs a node count, e.g. fake:2");
            }
        }
        if (lower.startsWith("configured:")) {
            return configured(s.substring("configured:".length()));
        }
        throw new IllegalArgumentException("bad topology setting '" + setting
                + "' (expected real, fake:N or configured:SPEC such as configured:0-7@0;8-15@1)");
    }
}
