package io.locusdb.server.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code ./locus} command line: one entry point, one subcommand per job. */
@Command(name = "locus",
        mixinStandardHelpOptions = true,
        versionProvider = LocusCli.Version.class,
        description = "LocusDB: a NUMA-aware main-memory column store.",
        footer = {"", "Run by the ./locus script itself:",
                "  test [mvn args]        the whole test suite (unit tests and multi-node QEMU guest suites)",
                "  jmh [jmh args]         the JMH microbenchmarks in engine-bench",
                "  bench load [SF]        LocusDB vs DuckDB: lineitem load time and footprint",
                "  bench query [SF]       LocusDB vs DuckDB: TPC-H Q1, Q6 and the paper's scan shapes, 1 and 2 threads",
                "  bench clients [...]    N JDBC clients run the checked TPC-H mix against a server: queries/s, p50/p99",
                "  calibrate [--help]     the stealing-threshold calibration experiment and move/repartition speeds"},
        subcommands = {TopologyCommand.class, CpuCommand.class, LoadCommand.class, SqlCommand.class, ServeCommand.class,
                PasswdCommand.class, TrainCommand.class, CommandLine.HelpCommand.class})
public final class LocusCli implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        // The JDK's log lines in one line each ("WARNING io.locusdb...: message"), not its two-line default.
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s %3$s: %5$s%6$s%n");
        }
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new LocusCli());
        // Bad arguments and bad settings are user errors: one clear line, no stack trace.
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IllegalArgumentException || e instanceof StartRefusedException) {
                commandLine.getErr().println("locus: " + e.getMessage());
                return 2;
            }
            throw e;
        });
        return cli;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = LocusCli.class.getPackage().getImplementationVersion();
            return new String[] {"LocusDB " + (version == null ? "(development build)" : version)
                    + " on Java " + Runtime.version()};
        }
    }
}
