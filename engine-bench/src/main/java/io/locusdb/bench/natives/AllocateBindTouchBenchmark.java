package io.locusdb.bench.natives;

import io.locusdb.natives.memory.MemoryPolicy;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.memory.NodeSegment;
import io.locusdb.natives.topology.Topologies;
import java.lang.foreign.Arena;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * mmap + mbind + first touch of a whole segment, then unmap: the fixed cost of putting a column on a node. One
 * operation is one segment of {@code megabytes}; GB/s = megabytes / 1024 / (ms/op / 1000).
 * {@code Arena.allocate} (zero-fill, no binding) is the baseline in the same run.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-modules=jdk.incubator.vector"})
@State(Scope.Benchmark)
public class AllocateBindTouchBenchmark {
    @Param({"64"})
    public int megabytes;

    @Param({"false", "true"})
    public boolean hugePages;

    private NodeMemory memory;
    private long bytes;

    @Setup
    public void setUp() {
        memory = new NodeMemory(Topologies.real());
        bytes = (long) megabytes << 20;
    }

    @Benchmark
    public long allocateBindTouch() {
        try (Arena arena = Arena.ofConfined()) {
            NodeSegment segment = memory.allocate(bytes, MemoryPolicy.bind(0), arena, hugePages);
            segment.touchPages(memory.pageSize());
            return segment.address();
        }
    }

    @Benchmark
    public long arenaAllocateBaseline() {
        try (Arena arena = Arena.ofConfined()) {
            return arena.allocate(bytes, 4096).address();
        }
    }
}
