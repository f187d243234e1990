package io.locusdb.bench.eris;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code ./locus bench eris ...}: the keyed-table (ERIS) benchmarks on the real engine. */
@Command(name = "eris", mixinStandardHelpOptions = true, subcommands = {LookupBench.class, ScanSharingBench.class, UpsertBench.class, BalanceBench.class},
        description = "ERIS on the real engine: lookups (SQL, over the wire), scans, upserts, balance (the ERIS"
                + " runtime)")
public final class ErisCommand implements Runnable {
    @Override
    public void run() {
        throw new CommandLine.ParameterException(new CommandLine(this), "name a benchmark: lookups, scans, upserts or balance");
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ErisCommand()).execute(args));
    }
}
