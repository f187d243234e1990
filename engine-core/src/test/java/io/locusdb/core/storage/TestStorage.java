package io.locusdb.core.storage;

import io.locusdb.core.storage.table.Catalog;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.topology.FakeTopology;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;

/** Storage fixtures for tests: a fake two-node topology over whatever this machine has. */
public final class TestStorage {
    private TestStorage() {
    }

    public static Topology twoNodes() {
        return FakeTopology.split(Topologies.real(), Math.min(2, Topologies.real().cpuCount()));
    }

    public static NodeMemory memory() {
        return new NodeMemory(twoNodes());
    }

    public static Catalog catalog() {
        return new Catalog(memory());
    }
}
