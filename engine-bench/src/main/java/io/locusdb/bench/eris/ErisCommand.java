package io.locusdb.bench.eris;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code ./locus bench eris ...}: the keyed-table (ERIS) benchmarks on the real engine. */
@Command(name = "eris", mixinStandardHelpOptions = true, subcommands = LookupBench.class,
        description = "Keyed tables on the real engine: lookups (upserts, scans and balance are still to come)")
public final class ErisCommand implements Runnable {
    @Override
    public void run() {
        throw new CommandLine.ParameterException(new CommandLine(this), "name a benchmark: lookups");
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ErisCommand()).execute(args));
    }
}
