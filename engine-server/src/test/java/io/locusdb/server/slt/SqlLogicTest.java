package io.locusdb.server.slt;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.server.net.LocusServer;
import io.locusdb.server.net.ServerConfig;
import io.locusdb.server.slt.SltRunner.Outcome;
import io.locusdb.server.slt.SltRunner.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * SQLite's sqllogictest corpus (public domain, written by SQLite's authors for SQLite and other engines; read from
 * the {@code net.hydromatic:sql-logic-test} artifact, which packages it) run over JDBC against a fresh in-memory
 * server per file, as a user's tool would. Each record passes, is {@link Verdict#WRONG wrong} (ran with other
 * values, or should have failed) or {@link Verdict#FAILED failed} (refused or broken). The test fails on any
 * wrong answer, on any internal error (XX000), and when fewer records pass than {@link #PASSING_FLOOR} (what
 * passes today, so that a change that breaks SQL that used to work is caught). The report with every miss (SQL,
 * expected, actual) goes to {@code target/sqllogictest.txt}. Records whose expected values follow SQLite's dynamic
 * typing rather than standard SQL ({@code slt/sqlite-typing.txt}, each named) are not wrong answers here.
 *
 * <p>By default a sample runs (a few minutes); {@code -Dlocus.slt.files=all} runs the whole corpus and
 * {@code -Dlocus.slt.files=random/groupby,select4.test} the files under those paths, e.g. {@code ./locus test -pl
 * engine-server -Dtest=SqlLogicTest -Dlocus.slt.files=all}. {@code -Dlocus.slt.engine=duckdb} runs the same
 * records against DuckDB in-process instead, for the time it takes (the records it fails are DuckDB's business).
 * {@code -Dlocus.slt.url=jdbc:locusdb://host:port/} runs them against a server that is already running (the one
 * users start, {@code ./locus serve --in-memory}, with its JVM settings), dropping each file's tables and views after
 * it, for the time a user's server takes; it must start empty.
 */
class SqlLogicTest {
    static final List<String> SAMPLE = List.of(
            "select1.test", "select2.test", "select3.test",
            "random/aggregates/slt_good_0.test", "random/expr/slt_good_0.test",
            "random/groupby/slt_good_0.test", "random/select/slt_good_0.test",
            "index/between/10/slt_good_0.test", "index/in/10/slt_good_0.test",
            "index/orderby/10/slt_good_0.test", "index/commute/10/slt_good_0.test",
            "evidence/in1.test", "evidence/in2.test", "evidence/slt_lang_aggfunc.test");
    /** The share of the sample's records that must pass: today's (99.8 %), rounded down. */
    static final double PASSING_FLOOR = 0.995;
    /** SQLSTATE of an error nobody anticipated: a crash, never a user's answer. */
    private static final String INTERNAL_ERROR = "XX000";
    private static final Path REPORT = Path.of("target", "sqllogictest.txt");
    /** What the names of the server's own views start with; no table of a user's may. */
    private static final String SYSTEM_VIEWS = "locus_";
    private static final String SQLITE_TYPING = "/slt/sqlite-typing.txt";

    @Test
    void theCorpusGivesNoWrongAnswerAndTheSharePassingDoesNotFall() throws Exception {
        String selection = System.getProperty("locus.slt.files", "sample");
        List<Outcome> outcomes = new ArrayList<>();
        StringBuilder perFile = new StringBuilder();
        try (FileSystem corpus = corpus()) {
            Path root = corpus.getPath("/test");
            for (Path file : files(root, selection)) {
                String name = root.relativize(file).toString();
                List<SltRecord> records = SltScript.parse(name, Files.readString(file, StandardCharsets.UTF_8));
                long start = System.nanoTime();
                List<Outcome> ran = runFile(name, records);
                outcomes.addAll(ran);
                perFile.append(String.format(Locale.ROOT, "%-45s %6d records %6.1f %% passed  %6.1f s%n", name,
                        ran.size(), 100.0 * count(ran, Verdict.PASSED) / Math.max(1, ran.size()),
                        (System.nanoTime() - start) / 1e9));
            }
        }
        Map<Verdict, Long> totals = new EnumMap<>(Verdict.class);
        for (Verdict v : Verdict.values()) {
            totals.put(v, count(outcomes, v));
        }
        double passed = (double) totals.get(Verdict.PASSED) / Math.max(1, outcomes.size());
        writeReport(selection, perFile, totals, passed, outcomes);

        assertThat(outcomes).as("records run").isNotEmpty();
        if (System.getProperty("locus.slt.engine", "locusdb").equals("duckdb")) {
            return;
        }
        Set<String> typing = sqliteTyping();
        assertThat(outcomes.stream().filter(o -> o.verdict() == Verdict.WRONG && !typing.contains(o.where()))
                .map(Outcome::describe).limit(20))
                .as("wrong answers beyond SQLite's typing (all in %s)", REPORT.toAbsolutePath()).isEmpty();
        assertThat(outcomes.stream().filter(o -> o.actual().startsWith(INTERNAL_ERROR)).map(Outcome::describe)
                .limit(20)).as("internal errors: a statement must fail with a SQLSTATE naming its problem").isEmpty();
        if (selection.equals("sample")) {
            assertThat(passed).as("share of records passing (misses in %s)", REPORT.toAbsolutePath())
                    .isGreaterThanOrEqualTo(PASSING_FLOOR);
        }
    }

    /** One file's records on a fresh in-memory server, on the server at {@code locus.slt.url}, or on DuckDB. */
    private static List<Outcome> runFile(String name, List<SltRecord> records) throws SQLException {
        String url = System.getProperty("locus.slt.url");
        if (url != null) {
            if (System.getProperty("locus.slt.engine") != null) {
                throw new IllegalArgumentException("locus.slt.url and locus.slt.engine name two engines: give one");
            }
            try (Connection connection = DriverManager.getConnection(url)) {
                List<Outcome> outcomes;
                try {
                    outcomes = SltRunner.run(name, records, connection);
                } catch (SQLException | RuntimeException e) {
                    try {
                        dropEverything(connection);
                    } catch (SQLException dropFailed) {
                        e.addSuppressed(dropFailed);
                    }
                    throw e;
                }
                dropEverything(connection);
                return outcomes;
            }
        }
        if (System.getProperty("locus.slt.engine", "locusdb").equals("duckdb")) {
            try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
                return SltRunner.run(name, records, duck);
            }
        }
        LocusDB db = LocusDB.open(LocusConfig.defaults());
        try (LocusServer server = LocusServer.start(db, ServerConfig.defaults().with("port", "0")
                .with("pg.port", "-1").with("metrics.port", "-1"));
             Connection connection = DriverManager.getConnection(
                     "jdbc:locusdb://127.0.0.1:" + server.port() + "/")) {
            return SltRunner.run(name, records, connection);
        }
    }

    /**
     * The records ({@code file:line}) whose expected values follow SQLite's dynamic typing where standard SQL types
     * otherwise ({@code slt/sqlite-typing.txt} says how): answered as PostgreSQL answers, not failed on.
     */
    static Set<String> sqliteTyping() throws IOException {
        try (InputStream in = SqlLogicTest.class.getResourceAsStream(SQLITE_TYPING)) {
            assertThat(in).as(SQLITE_TYPING).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).collect(Collectors.toSet());
        }
    }

    /** Drops the views, then the tables, that a file left on a shared server, so that the next starts empty. */
    private static void dropEverything(Connection connection) throws SQLException {
        List<String> drops = new ArrayList<>();
        try (Statement statement = connection.createStatement()) {
            try (ResultSet tables = statement.executeQuery("SELECT table_name, table_type FROM"
                    + " information_schema.tables WHERE table_schema = 'public' ORDER BY table_type DESC")) {
                while (tables.next()) {
                    if (tables.getString(1).startsWith(SYSTEM_VIEWS)) {
                        continue;
                    }
                    drops.add("DROP " + (tables.getString(2).equals("VIEW") ? "VIEW" : "TABLE") + " IF EXISTS \""
                            + tables.getString(1).replace("\"", "\"\"") + "\"");
                }
            }
            for (String drop : drops) {
                statement.execute(drop);
            }
        }
    }

    private static long count(List<Outcome> outcomes, Verdict verdict) {
        return outcomes.stream().filter(o -> o.verdict() == verdict).count();
    }

    /** The corpus inside the artifact's jar, opened as a file system. */
    private static FileSystem corpus() throws IOException, URISyntaxException {
        URL marker = SqlLogicTest.class.getClassLoader().getResource("test/select1.test");
        assertThat(marker).as("the sqllogictest corpus on the test class path").isNotNull();
        URI uri = marker.toURI();
        String jar = uri.toString().substring(0, uri.toString().indexOf('!'));
        try {
            FileSystems.getFileSystem(URI.create(jar));
            throw new IllegalStateException("the corpus jar is already open");
        } catch (FileSystemNotFoundException expected) {
            return FileSystems.newFileSystem(URI.create(jar), Map.of());
        }
    }

    static List<Path> files(Path root, String selection) throws IOException {
        List<String> wanted = selection.equals("sample") ? SAMPLE
                : selection.equals("all") ? List.of("") : List.of(selection.split(","));
        List<Path> files = new ArrayList<>();
        for (String w : wanted) {
            Path p = w.isEmpty() ? root : root.resolve(w.strip());
            if (!Files.exists(p)) {
                throw new IllegalArgumentException("no such corpus file or folder: " + w);
            }
            try (Stream<Path> walk = Files.walk(p)) {
                walk.filter(f -> f.toString().endsWith(".test")).sorted().forEach(files::add);
            }
        }
        return files;
    }

    private static void writeReport(String selection, CharSequence perFile, Map<Verdict, Long> totals,
                                    double passed, List<Outcome> outcomes) {
        StringBuilder out = new StringBuilder();
        out.append("sqllogictest (").append(selection).append("): ").append(outcomes.size()).append(" records, ")
                .append(String.format(Locale.ROOT, "%.2f %% passed", 100 * passed)).append(' ').append(totals)
                .append("\n\n").append(perFile).append('\n');
        for (Outcome o : outcomes) {
            if (o.verdict() != Verdict.PASSED) {
                out.append(o.describe()).append("\n\n");
            }
        }
        try {
            Files.createDirectories(REPORT.getParent());
            Files.writeString(REPORT, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
