package io.locusdb.bench.natives;

import com.sun.jna.Library;
import com.sun.jna.Native;
import io.locusdb.natives.ffm.LibC;
import io.locusdb.natives.ffm.LibNuma;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one downcall, FFM against JNA (on the design card as the alternative), on the calls the executor makes
 * per task: {@code sched_getcpu} and the CPU→node lookup. JNA is measured in both of its styles: interface
 * mapping (reflection proxy) and direct mapping ({@code Native.register}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-modules=jdk.incubator.vector"})
@State(Scope.Benchmark)
public class DowncallBenchmark {

    /** JNA interface mapping: a proxy per call. */
    public interface JnaLibC extends Library {
        int sched_getcpu();
    }

    /** JNA direct mapping: native methods bound with Native.register. */
    public static final class JnaDirect {
        static {
            Native.register("c");
        }

        public static native int sched_getcpu();
    }

    /** JNA direct mapping of libnuma. */
    public static final class JnaDirectNuma {
        static {
            Native.register("numa");
        }

        public static native int numa_node_of_cpu(int cpu);
    }

    private JnaLibC jnaInterface;
    private Topology topology;
    private int cpu;

    @Setup
    public void setUp() {
        jnaInterface = Native.load("c", JnaLibC.class);
        topology = Topologies.real();
        cpu = topology.cpus().first();
        JnaDirect.sched_getcpu();
        JnaDirectNuma.numa_node_of_cpu(cpu);
    }

    @Benchmark
    public int ffmSchedGetCpu() {
        return LibC.schedGetCpu();
    }

    @Benchmark
    public int jnaDirectSchedGetCpu() {
        return JnaDirect.sched_getcpu();
    }

    @Benchmark
    public int jnaInterfaceSchedGetCpu() {
        return jnaInterface.sched_getcpu();
    }

    @Benchmark
    public int ffmNumaNodeOfCpu() {
        return LibNuma.nodeOfCpu(cpu);
    }

    @Benchmark
    public int jnaDirectNumaNodeOfCpu() {
        return JnaDirectNuma.numa_node_of_cpu(cpu);
    }

    /** What the engine actually does per task: the cached table lookup. */
    @Benchmark
    public int cachedTopologyNodeOfCpu() {
        return topology.nodeOfCpu(cpu);
    }
}
