package io.locusdb.bench.seed;

import io.locusdb.bench.sim.Scenario;
import io.locusdb.bench.sim.SimEvent;
import java.util.List;
import java.util.Map;

/**
 * Where the benchmark runs: an embedded engine ({@link EmbeddedTarget}) or a server over JDBC
 * ({@link ServerTarget}). The driver ({@link SeedWorkloadRun}) times the clients the same way for both.
 */
public interface SeedTarget extends AutoCloseable {
    /** One client's connection: runs one query of the benchmark and reads its result to the end. */
    interface Client extends AutoCloseable {
        void run(char type, String table, String joined, int column, long low, long high) throws Exception;

        @Override
        void close() throws Exception;
    }

    /** What the engine's placer sees of every node now: threads of tasks on their own data, memory bytes/s. */
    record NodeSample(double[] threads, double[] memoryBytesPerSecond) {
    }

    int nodes();

    int cpus();

    String describe();

    /** Creates, fills and places every table of the scenario with {@code rows} rows each. */
    void load(Scenario scenario, long rows, long seed) throws Exception;

    Client connect() throws Exception;

    /** Switches the placer on; false where the target cannot (a server's placer runs as configured). */
    boolean enablePlacer() throws Exception;

    NodeSample sample() throws Exception;

    /** The placer's own changes since {@code sinceEpochMillis}, timed from then. */
    List<SimEvent> events(long sinceEpochMillis) throws Exception;

    /** Share of tasks run on another node than their data's (NaN where the target does not say). */
    double stolenShare();

    /** Each task class's learnt memory throughput (empty where the target does not say). */
    Map<String, Double> classThroughput();

    @Override
    void close() throws Exception;
}
