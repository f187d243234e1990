package io.locusdb.server.cli;

import io.locusdb.core.cpu.BitExtractSpeed;
import io.locusdb.core.cpu.CpuInfo;
import io.locusdb.core.cpu.KernelSelection;
import io.locusdb.core.cpu.KernelSettings;
import io.locusdb.core.cpu.Kernels;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./locus cpu}: the CPU, and which form of each hot kernel LocusDB runs on it and why. */
@Command(name = "cpu", mixinStandardHelpOptions = true,
        description = {"Prints the CPU, the kernel forms chosen for it (512-bit, 256-bit or scalar; PEXT/PDEP or "
                + "not) and why.",
                "Settings force forms: LOCUS_JAVA_OPTS=\"-Dlocus.kernels=256|512|scalar "
                        + "-Dlocus.kernel.<shape>=... -Dlocus.kernel.pext=on|off\", or LOCUS_KERNELS / "
                        + "LOCUS_KERNEL_PEXT."})
public final class CpuCommand implements Callable<Integer> {
    @Option(names = "--measure", description = "Time PEXT against its portable replacement again and store the "
            + "result in the cache (${LOCUS_HOME:-~/.locusdb}/cpu-kernels.properties).")
    boolean measure;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec commandSpec;

    @Override
    public Integer call() {
        PrintWriter out = commandSpec.commandLine().getOut();
        KernelSelection selection = Kernels.selection();
        if (measure) {
            CpuInfo cpu = selection.cpu();
            BitExtractSpeed speed = BitExtractSpeed.measure();
            Path cache = BitExtractSpeed.defaultCache();
            boolean stored = speed.store(cache, cpu);
            out.printf(Locale.ROOT, "measured: PEXT %.2f ns, portable %.2f ns per word (%s %s)%n",
                    speed.pextNanos(), speed.portableNanos(), stored ? "stored in" : "could not store in", cache);
            selection = KernelSelection.decide(cpu, Kernels.preferredLongLanes(),
                    KernelSettings.fromEnvironment(), () -> speed);
        }
        out.print(selection.describe());
        out.flush();
        return 0;
    }
}
