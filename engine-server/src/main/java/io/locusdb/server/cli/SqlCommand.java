package io.locusdb.server.cli;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.natives.topology.Topologies;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./locus sql --embedded}: an interactive SQL shell on an in-process database. Statements end with
 * {@code ;}; results print as aligned tables. A failing statement prints its SQLSTATE, message and position, and
 * the shell goes on.
 */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = {"An interactive SQL shell. --embedded runs the database in this process (the server and"
                + " its client arrive with the server issue).",
                "Statements end with ';'. Try: LOAD TPCH SCALE 0.1 PARTS 2; then SELECT count(*) FROM lineitem;"})
public final class SqlCommand implements Callable<Integer> {
    private static final int MAX_PRINTED_ROWS = 1000;

    @Option(names = "--embedded", description = "Open an in-process database (required for now).")
    boolean embedded;

    @Option(names = "--topology", paramLabel = "SETTING",
            description = "real, fake:N or configured:SPEC (default: LOCUS_TOPOLOGY, else real).")
    String topology;

    @Option(names = {"-c", "--command"}, paramLabel = "SQL", description = "Run these statements and exit.")
    List<String> commands = new ArrayList<>();

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Run the statements in FILE and exit.")
    Path file;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (!embedded) {
            throw new IllegalArgumentException("only --embedded is available in this version: the network server"
                    + " and its client are not built yet");
        }
        PrintWriter out = spec.commandLine().getOut();
        LocusConfig config = topology == null ? LocusConfig.defaults()
                : LocusConfig.of(Topologies.fromSetting(topology));
        boolean failed = false;
        try (LocusDB db = LocusDB.open(config); Session session = db.connect()) {
            if (!commands.isEmpty() || file != null) {
                StringBuilder script = new StringBuilder();
                for (String c : commands) {
                    script.append(c).append(";\n");
                }
                if (file != null) {
                    script.append(Files.readString(file));
                }
                for (String statement : StatementSplitter.split(script.toString())) {
                    failed |= !run(session, statement, out);
                }
                return failed ? 1 : 0;
            }
            boolean console = System.console() != null;
            if (console) {
                out.println("LocusDB embedded on " + db.topology().nodeCount() + " node(s); statements end with ';',"
                        + " Ctrl-D quits.");
            }
            Reader in = new InputStreamReader(System.in, StandardCharsets.UTF_8);
            BufferedReader lines = new BufferedReader(in);
            StringBuilder pending = new StringBuilder();
            while (true) {
                if (console) {
                    out.print(pending.isEmpty() ? "locus> " : "   ... ");
                    out.flush();
                }
                String line = lines.readLine();
                if (line == null) {
                    break;
                }
                pending.append(line).append('\n');
                List<String> complete = StatementSplitter.complete(pending);
                for (String statement : complete) {
                    failed |= !run(session, statement, out);
                }
            }
            if (!pending.toString().isBlank()) {
                failed |= !run(session, pending.toString(), out);
            }
        }
        return failed ? 1 : 0;
    }

    /** Runs one statement and prints its outcome; false when it failed. */
    static boolean run(Session session, String sql, PrintWriter out) {
        long t0 = System.nanoTime();
        try (QueryResult result = session.execute(sql)) {
            if (!result.hasRows()) {
                out.printf(Locale.ROOT, "OK, %d row(s) affected (%.1f ms)%n", Math.max(0, result.updateCount()),
                        (System.nanoTime() - t0) / 1e6);
            } else {
                ResultPrinter.print(result, out, MAX_PRINTED_ROWS);
                out.printf(Locale.ROOT, "(%.1f ms)%n", (System.nanoTime() - t0) / 1e6);
            }
            out.flush();
            return true;
        } catch (LocusSqlException e) {
            out.println("ERROR " + e);
            out.flush();
            return false;
        } catch (RuntimeException e) {
            out.println("ERROR " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            out.flush();
            return false;
        }
    }
}
