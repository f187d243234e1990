package io.locusdb.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.home.LocusHome;
import io.locusdb.core.Session;
import io.locusdb.core.durable.Durability;
import io.locusdb.core.storage.load.LoadProgress;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.table.InitialPlacement;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code ./locus serve} says when it will not start: the scale or tables it found against the ones asked for,
 * a configuration it refuses — one line each, exit code 2, nothing lost — and where LOCUS_HOME puts its files.
 */
class ServeStartTest {
    private final CommandRun cli = new CommandRun();

    private int run(String... args) {
        return cli.run(args);
    }

    /** A data directory holding TPC-H at {@code sf}, as an earlier start would have left it. */
    private static void tpchIn(Path directory, double sf) {
        try (LocusDB db = LocusDB.open(LocusConfig.defaults().withDurability(Durability.in(directory)))) {
            new TpchLoader(db.memory(), 2).loadAll(db.catalog(), sf, 1, new InitialPlacement.RoundRobin(),
                    LoadProgress.NONE);
            db.durableStore().orElseThrow().checkpoint();
        }
    }

    private static final String[] NO_LISTENERS = {"--port", "0", "--pg-port", "-1", "--metrics-port", "-1"};

    private static String[] serve(String... args) {
        List<String> all = new ArrayList<>(List.of("serve"));
        all.addAll(List.of(args));
        all.addAll(List.of(NO_LISTENERS));
        return all.toArray(String[]::new);
    }

    @Test
    void aRefusedConfigurationIsOneLineNamingTheSettingAndExitCode2() {
        assertThat(run(serve("--in-memory", "--bind", "0.0.0.0"))).isEqualTo(2);
        assertThat(cli.err().strip()).startsWith("locus: ").contains("bind = 0.0.0.0")
                .contains("allow-trust-on-network=true").doesNotContain("\n").doesNotContain("Exception");
    }

    @Test
    void aWarmUpSettingOtherThanOnOrOffIsRefusedInOneLine() {
        assertThat(run(serve("--in-memory", "--warm-up", "maybe"))).isEqualTo(2);
        assertThat(cli.err().strip()).contains("--warm-up takes on or off").doesNotContain("Exception");
    }

    @Test
    void anotherScaleInTheDataDirectoryIsRefusedNamingBothAndTheWayOut(@TempDir Path dir) {
        Path data = dir.resolve("data");
        tpchIn(data, 0.01);
        assertThat(run(serve("--data", data.toString(), "--tpch", "0.02"))).isEqualTo(2);
        assertThat(cli.err().strip()).startsWith("locus: ").contains(data.toString())
                .contains("SF 0.01").contains("SF 0.02").contains("--replace").contains("--data")
                .doesNotContain("\n");
        // Nothing was dropped: the directory still opens with its eight tables.
        try (LocusDB db = LocusDB.open(LocusConfig.defaults().withDurability(Durability.in(data)))) {
            assertThat(db.catalog().find("orders").orElseThrow().version().rows()).isEqualTo(15_000);
            assertThat(db.catalog().tables()).hasSize(8);
        }
    }

    @Test
    void aRecordedScaleCountsWhileTheOrdersStillMatchIt(@TempDir Path dir) {
        Path data = dir.resolve("data");
        tpchIn(data, 0.01);
        try (LocusDB db = LocusDB.open(LocusConfig.defaults().withDurability(Durability.in(data)))) {
            TpchInDataDirectory.recordScale(data, 0.01);
            assertThat(TpchInDataDirectory.decide(db, data, 0.01, false)).isEqualTo(TpchInDataDirectory.Action.KEEP);
            assertThatThrownBy(() -> TpchInDataDirectory.decide(db, data, 0.02, false))
                    .isInstanceOf(StartRefusedException.class).hasMessageContaining("holds TPC-H SF 0.01,");
            // A marker the tables no longer match (loaded otherwise since) gives way to what the tables hold.
            TpchInDataDirectory.recordScale(data, 0.5);
            assertThat(TpchInDataDirectory.decide(db, data, 0.01, false)).isEqualTo(TpchInDataDirectory.Action.KEEP);
            assertThat(TpchInDataDirectory.decide(db, data, 0.01, true))
                    .isEqualTo(TpchInDataDirectory.Action.GENERATE);
            assertThat(db.catalog().tables()).isEmpty();
        }
    }

    @Test
    void tablesThatOnlyShareTpchNamesAreNotTakenForTpch(@TempDir Path dir) {
        Path data = dir.resolve("data");
        try (LocusDB db = LocusDB.open(LocusConfig.defaults().withDurability(Durability.in(data)));
             Session s = db.connect()) {
            s.execute("CREATE TABLE orders (id BIGINT NOT NULL, note VARCHAR)");
            s.execute("CREATE TABLE mine (x INTEGER)");
        }
        assertThat(run(serve("--data", data.toString(), "--tpch", "0.01"))).isEqualTo(2);
        assertThat(cli.err()).contains("(orders)").contains("lineitem").contains("--replace");
    }

    @Test
    void locusHomeHoldsTheDataDirectoryAndEveryOtherFile() {
        assertThat(LocusHome.directory(Map.of("LOCUS_HOME", "/srv/locus"), "/home/u")).isEqualTo(Path.of("/srv/locus"));
        assertThat(LocusHome.directory(Map.of(), "/home/u")).isEqualTo(Path.of("/home/u/.locusdb"));
        assertThat(LocusHome.directory(Map.of("LOCUS_HOME", " "), "/home/u")).isEqualTo(Path.of("/home/u/.locusdb"));
    }

    @Test
    void aServerStartedWithLocusHomeUsesItsDataDirectory(@TempDir Path home) throws Exception {
        tpchIn(home.resolve("data"), 0.01);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "--add-modules",
                "jdk.incubator.vector", "-cp", System.getProperty("java.class.path"), LocusCli.class.getName(),
                "serve", "--tpch", "0.02", "--port", "0", "--pg-port", "-1", "--metrics-port", "-1")
                .redirectErrorStream(true);
        pb.environment().put("LOCUS_HOME", home.toString());
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isEqualTo(2);
        assertThat(output).contains("data directory: " + home.resolve("data"))
                .contains("the data directory " + home.resolve("data") + " holds TPC-H SF 0.01");
        assertThat(Files.exists(home.resolve("data").resolve("MANIFEST"))).isTrue();
    }
}
