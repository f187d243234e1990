package io.locusdb.server.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One run of the {@code locus} command line in this JVM, with what it printed to stdout and stderr. */
final class CommandRun {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** Runs {@code locus args...}; returns the exit code. */
    int run(String... args) {
        CommandLine cli = LocusCli.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    String out() {
        return out.toString();
    }

    String err() {
        return err.toString();
    }
}
