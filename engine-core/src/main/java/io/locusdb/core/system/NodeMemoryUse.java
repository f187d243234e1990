package io.locusdb.core.system;

import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import java.util.ArrayList;
import java.util.List;

/** Table memory per node: the mapped bytes of the parts whose home is the node (for system tables and metrics). */
public final class NodeMemoryUse {
    private NodeMemoryUse() {
    }

    /** One node's table memory. */
    public record Use(long mappedBytes, int parts) {
    }

    public static List<Use> of(Catalog catalog) {
        int nodes = catalog.memory().topology().nodeCount();
        long[] bytes = new long[nodes];
        int[] parts = new int[nodes];
        for (Table table : catalog.tables()) {
            for (TablePart part : table.version().parts()) {
                int node = part.homeNode();
                if (node >= 0 && node < nodes) {
                    bytes[node] += part.memory().mappedBytes();
                    parts[node]++;
                }
            }
        }
        List<Use> out = new ArrayList<>(nodes);
        for (int n = 0; n < nodes; n++) {
            out.add(new Use(bytes[n], parts[n]));
        }
        return out;
    }
}
