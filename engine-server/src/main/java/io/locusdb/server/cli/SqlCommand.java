package io.locusdb.server.cli;

import io.locusdb.core.home.LocusHome;
import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.natives.topology.Topologies;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./locus sql [jdbc-url]}: an interactive SQL shell over the JDBC driver (default
 * {@code jdbc:locusdb://127.0.0.1:5499/}), or with {@code --embedded} on an in-process database. Statements end
 * with {@code ;} and may span lines; results print as aligned tables with the time each statement took. A failing
 * statement prints {@code ERROR [SQLSTATE] message (line L, column C)} and the shell goes on; with {@code -c} or
 * {@code -f} the exit code is 1 when any statement failed. Interactive statements are appended to
 * {@code ~/.locusdb/sql_history} ({@code $LOCUS_HOME/sql_history}); {@code \history} shows the last ones.
 */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = {"An interactive SQL shell over the JDBC driver (a running ./locus serve), or on an"
                + " in-process database with --embedded.",
                "Statements end with ';'. Try: SELECT count(*) FROM lineitem; (--embedded: LOAD TPCH SCALE 0.1"
                        + " PARTS 2; first)"})
public final class SqlCommand implements Callable<Integer> {
    static final String DEFAULT_URL = "jdbc:locusdb://127.0.0.1:5499/";
    private static final int MAX_PRINTED_ROWS = 1000;
    private static final int HISTORY_SHOWN = 20;

    @Parameters(index = "0", arity = "0..1", paramLabel = "JDBC-URL",
            description = "Server to connect to (default: " + DEFAULT_URL + ").")
    String url;

    @Option(names = "--user", paramLabel = "USER", description = "User name (else the URL's user parameter).")
    String user;

    @Option(names = "--password", paramLabel = "PASSWORD",
            description = "Password (else LOCUS_PASSWORD, else asked for on a terminal when --user is given).")
    String password;

    @Option(names = "--embedded", description = "Open an in-process database instead of connecting to a server.")
    boolean embedded;

    @Option(names = "--topology", paramLabel = "SETTING",
            description = "With --embedded: real, fake:N or configured:SPEC (default: LOCUS_TOPOLOGY, else real).")
    String topology;

    @Option(names = {"-c", "--command"}, paramLabel = "SQL", description = "Run these statements and exit.")
    List<String> commands = new ArrayList<>();

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Run the statements in FILE and exit.")
    Path file;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Runs one statement and prints its outcome; false when it failed. */
    private interface Runner {
        boolean run(String sql, PrintWriter out);
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (embedded) {
            if (url != null) {
                throw new IllegalArgumentException("--embedded and a JDBC URL exclude each other");
            }
            LocusConfig config = topology == null ? LocusConfig.defaults()
                    : LocusConfig.of(Topologies.fromSetting(topology)).withStoredCalibration();
            try (LocusDB db = LocusDB.open(config); Session session = db.connect()) {
                return shell((sql, o) -> run(session, sql, o), out, "LocusDB embedded on "
                        + db.topology().nodeCount() + " node(s)");
            }
        }
        if (topology != null) {
            throw new IllegalArgumentException("--topology applies to --embedded only; the server has its own");
        }
        String target = url == null ? DEFAULT_URL : url;
        Properties props = new Properties();
        if (user != null) {
            props.setProperty("user", user);
        }
        String secret = password != null ? password : System.getenv("LOCUS_PASSWORD");
        if (secret == null && user != null && System.console() != null && commands.isEmpty() && file == null) {
            char[] typed = System.console().readPassword("Password for %s: ", user);
            secret = typed == null ? null : new String(typed);
        }
        if (secret != null) {
            props.setProperty("password", secret);
        }
        Connection connection;
        try {
            connection = DriverManager.getConnection(target, props);
        } catch (SQLException e) {
            throw new IllegalArgumentException(e.getMessage() + (e.getSQLState() == null ? ""
                    : " [" + e.getSQLState() + "]"), e);
        }
        try (connection) {
            String version = connection.getMetaData().getDatabaseProductVersion();
            return shell((sql, o) -> run(connection, sql, o), out, "Connected to LocusDB " + version + " at "
                    + connection.getMetaData().getURL());
        } catch (SQLException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The -c / -f script, or the interactive loop; returns the exit code. */
    private int shell(Runner runner, PrintWriter out, String banner) throws IOException {
        boolean failed = false;
        if (!commands.isEmpty() || file != null) {
            StringBuilder script = new StringBuilder();
            for (String c : commands) {
                script.append(c).append(";\n");
            }
            if (file != null) {
                script.append(Files.readString(file));
            }
            for (String statement : StatementSplitter.split(script.toString())) {
                failed |= !runner.run(statement, out);
            }
            return failed ? 1 : 0;
        }
        Console console = System.console();
        boolean interactive = console != null;
        Path history = interactive ? historyFile() : null;
        if (interactive) {
            out.println(banner + "; statements end with ';', \\history shows the last ones, Ctrl-D quits.");
        }
        BufferedReader lines = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder pending = new StringBuilder();
        while (true) {
            if (interactive) {
                out.print(pending.isEmpty() ? "locus> " : "   ... ");
                out.flush();
            }
            String line = lines.readLine();
            if (line == null) {
                break;
            }
            if (pending.isEmpty() && line.strip().startsWith("\\")) {
                String meta = line.strip();
                if (meta.equals("\\q") || meta.equals("\\quit")) {
                    break;
                }
                if (meta.equals("\\history") || meta.equals("\\h")) {
                    printHistory(history, out);
                } else {
                    out.println("unknown command " + meta + " (\\history, \\q)");
                }
                out.flush();
                continue;
            }
            pending.append(line).append('\n');
            for (String statement : StatementSplitter.complete(pending)) {
                remember(history, statement);
                failed |= !runner.run(statement, out);
            }
        }
        if (!pending.toString().isBlank()) {
            remember(history, pending.toString().strip());
            failed |= !runner.run(pending.toString(), out);
        }
        return failed ? 1 : 0;
    }

    static Path historyFile() {
        return LocusHome.resolve("sql_history");
    }

    /** Appends a statement to the history file (one entry a line, newlines inside kept as a visible "\n"). */
    static void remember(Path history, String statement) {
        if (history == null) {
            return;
        }
        try {
            Files.createDirectories(history.getParent());
            Files.writeString(history, statement.replace("\\", "\\\\").replace("\n", "\\n") + ";\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            // history is a convenience: a read-only home must not stop the shell
        }
    }

    private static void printHistory(Path history, PrintWriter out) {
        if (history == null || !Files.exists(history)) {
            out.println("(no history yet)");
            return;
        }
        try {
            List<String> all = Files.readAllLines(history, StandardCharsets.UTF_8);
            int from = Math.max(0, all.size() - HISTORY_SHOWN);
            for (int i = from; i < all.size(); i++) {
                out.printf(Locale.ROOT, "%5d  %s%n", i + 1, all.get(i));
            }
        } catch (IOException e) {
            out.println("cannot read " + history + ": " + e.getMessage());
        }
    }

    /** Runs one statement on the embedded session and prints its outcome; false when it failed. */
    static boolean run(Session session, String sql, PrintWriter out) {
        long t0 = System.nanoTime();
        try (QueryResult result = session.execute(sql)) {
            if (!result.hasRows()) {
                out.printf(Locale.ROOT, "OK, %d row(s) affected (%.1f ms)%n", Math.max(0, result.updateCount()),
                        (System.nanoTime() - t0) / 1e6);
            } else {
                ResultPrinter.print(result, out, MAX_PRINTED_ROWS, session.timeZone());
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

    /**
     * Runs one statement through JDBC and prints its outcome; false when it failed. The driver already appends
     * " (line L, column C)" to a positioned error's message.
     */
    static boolean run(Connection connection, String sql, PrintWriter out) {
        long t0 = System.nanoTime();
        try (Statement statement = connection.createStatement()) {
            if (statement.execute(sql)) {
                try (ResultSet rs = statement.getResultSet()) {
                    ResultPrinter.print(rs, out, MAX_PRINTED_ROWS);
                }
                out.printf(Locale.ROOT, "(%.1f ms)%n", (System.nanoTime() - t0) / 1e6);
            } else {
                out.printf(Locale.ROOT, "OK, %d row(s) affected (%.1f ms)%n",
                        Math.max(0, statement.getLargeUpdateCount()), (System.nanoTime() - t0) / 1e6);
            }
            out.flush();
            return true;
        } catch (SQLException e) {
            out.println("ERROR [" + (e.getSQLState() == null ? "HY000" : e.getSQLState()) + "] " + e.getMessage());
            out.flush();
            return false;
        }
    }
}
