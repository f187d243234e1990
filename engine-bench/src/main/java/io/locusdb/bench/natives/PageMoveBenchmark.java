package io.locusdb.bench.natives;

import io.locusdb.natives.memory.MemoryPolicy;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.memory.NodeSegment;
import io.locusdb.natives.memory.PageMoveReport;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import java.lang.foreign.Arena;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Moving a touched segment to the next node, round-robin: the placer's "move speed" in µs per page. Each
 * operation moves the whole segment once; µs/page = (ms/op × 1000) / pages. The aux counters report pages that
 * really migrated versus pages already on the target: on a one-node machine every page is already there and the
 * figure is the cost of asking, not of copying — run it in a multi-node guest or on a real NUMA server.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-modules=jdk.incubator.vector"})
@State(Scope.Benchmark)
public class PageMoveBenchmark {
    @Param({"16"})
    public int megabytes;

    private Topology topology;
    private NodeMemory memory;
    private Arena arena;
    private NodeSegment segment;
    private int node;

    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Pages {
        public long migrated;
        public long alreadyOnTarget;
        public long failed;
    }

    @Setup(Level.Trial)
    public void setUp() {
        topology = Topologies.fromEnvironment();
        memory = new NodeMemory(topology);
        arena = Arena.ofShared();
        segment = memory.allocate((long) megabytes << 20, MemoryPolicy.bind(0), arena);
        segment.touchPages(memory.pageSize());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public PageMoveReport moveToNextNode(Pages pages) {
        node = (node + 1) % topology.nodeCount();
        PageMoveReport report = memory.move(segment, node);
        pages.migrated += report.moved();
        pages.alreadyOnTarget += report.alreadyOnTarget();
        pages.failed += report.failed();
        return report;
    }
}
