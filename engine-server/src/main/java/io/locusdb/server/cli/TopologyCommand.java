package io.locusdb.server.cli;

import io.locusdb.core.LocusConfig;
import io.locusdb.natives.counters.CounterStatus;
import io.locusdb.natives.counters.ThreadCounters;
import io.locusdb.natives.ffm.LibC;
import io.locusdb.natives.ffm.LibNuma;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./locus topology}: what LocusDB sees of this machine's NUMA layout, and whether placement is real. */
@Command(name = "topology", mixinStandardHelpOptions = true,
        description = {"Prints NUMA nodes, their CPUs and memory, the distance matrix, and whether placement is "
                + "real, fake or unavailable.",
                "Without options the topology comes from LOCUS_TOPOLOGY (real, fake:N, configured:SPEC), else the "
                        + "real one."})
public final class TopologyCommand implements Callable<Integer> {
    @Option(names = "--fake", paramLabel = "N", description = "Split the allowed CPUs into N virtual nodes.")
    Integer fakeNodes;

    @Option(names = "--spec", paramLabel = "SPEC",
            description = "A configured topology, e.g. '0-7@0;8-15@1;distances=10,21,21,10'.")
    String spec;

    @Option(names = "--counters", description = "Also probe which perf counters this machine can count.")
    boolean counters;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec commandSpec;

    @Override
    public Integer call() {
        if (fakeNodes != null && spec != null) {
            throw new IllegalArgumentException("--fake and --spec are mutually exclusive");
        }
        Topology topology = fakeNodes != null ? Topologies.fake(fakeNodes)
                : spec != null ? Topologies.configured(spec)
                : Topologies.fromEnvironment();
        PrintWriter out = commandSpec.commandLine().getOut();
        out.print(topology.describe());
        out.println("libnuma: " + (LibNuma.isAvailable() ? "available" : LibNuma.unavailableReason()));
        out.println("page moves (move_pages): " + new NodeMemory(topology).pageMoves().describe());
        out.println("page size: " + LibC.pageSize() + " bytes; transparent huge pages: " + transparentHugePages());
        out.println("calibration: " + calibration(topology));
        if (counters) {
            out.println("perf counters:");
            for (CounterStatus status : ThreadCounters.probe()) {
                out.println("  " + status);
            }
        }
        out.flush();
        return 0;
    }

    /** What serve and the embedded database will use: the stored calibration, or the built-in defaults. */
    private static String calibration(Topology topology) {
        try {
            return LocusConfig.of(topology).withStoredCalibration().calibrationSummary();
        } catch (IllegalStateException damaged) {
            return damaged.getMessage();
        }
    }

    private static String transparentHugePages() {
        try {
            return Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled")).trim();
        } catch (IOException | SecurityException e) {
            return "unknown";
        }
    }
}
