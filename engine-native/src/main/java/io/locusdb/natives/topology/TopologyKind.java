package io.locusdb.natives.topology;

/** Where a {@link Topology} came from, and so how far its placement claims can be trusted. */
public enum TopologyKind {
    /** Discovered from libnuma and sysfs: memory really lands on the node asked for. */
    REAL("real"),
    /** CPUs split into virtual nodes; memory operations act on the real nodes behind them. */
    FAKE("fake"),
    /** Given by a spec string; memory operations act on the physical nodes the spec names. */
    CONFIGURED("configured"),
    /** No libnuma or no kernel NUMA support: one node, policies are recorded but not applied. */
    UNAVAILABLE("unavailable");

    private final String label;

    TopologyKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
