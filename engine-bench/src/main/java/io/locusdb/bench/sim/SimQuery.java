package io.locusdb.bench.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** A query of one client: phases of tasks, each phase starting when the one before has finished. */
final class SimQuery {
    final int group;
    final int client;
    final double issuedAt;
    /** Builds the tasks of each phase when it starts (parts may have moved since the query was issued). */
    final List<Supplier<List<SimTask>>> phases = new ArrayList<>();
    int phase = -1;
    int pending;

    SimQuery(int group, int client, double issuedAt) {
        this.group = group;
        this.client = client;
        this.issuedAt = issuedAt;
    }
}
