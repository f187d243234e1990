package io.locusdb.core.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.durable.DataDirectoryException.Problem;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.TestStorage;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A data directory keeps tables across restarts and crashes, and refuses damaged files rather than lose data. */
class DataDirectoryTest {
    @TempDir
    Path dir;

    private static LocusDB open(Path directory) {
        return LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null)
                .withExecutor(b -> b.pinWorkers(false)).withDurability(Durability.in(directory)));
    }

    private static List<List<Object>> query(LocusDB db, String sql) {
        try (Session s = db.connect(); QueryResult r = s.execute(sql)) {
            return r.toList();
        }
    }

    private static void execute(LocusDB db, String sql) {
        try (Session s = db.connect(); QueryResult r = s.execute(sql)) {
            r.updateCount();
        }
    }

    /** A copy of the directory as a crash would leave it: whatever reached the files, no last checkpoint. */
    private Path crashImage(Path from) throws IOException {
        return CrashImage.copy(from, Files.createTempDirectory(dir, "crash"));
    }

    private static Path lastLogSegment(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory.resolve("log"))) {
            return files.sorted().toList().getLast();
        }
    }

    private static List<Path> logSegments(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory.resolve("log"))) {
            return files.sorted().toList();
        }
    }

    @Test
    void restartsWithoutWritesDoNotPileUpLogSegments() throws IOException {
        Path data = dir.resolve("db");
        try (LocusDB db = open(data)) {
            execute(db, "CREATE TABLE t (id INTEGER)");
            execute(db, "INSERT INTO t VALUES (1), (2)");
        }
        for (int i = 0; i < 5; i++) {
            try (LocusDB db = open(data)) {
                assertThat(query(db, "SELECT count(*) FROM t").toString()).isEqualTo("[[2]]");
            }
        }
        assertThat(logSegments(data)).hasSize(1);
    }

    @Test
    void crashesBeforeAnyNewWriteReuseTheEmptySegmentAndReplayTheLoggedRowsOnce() throws IOException {
        Path data = dir.resolve("db");
        Path image;
        try (LocusDB db = open(data)) {
            execute(db, "CREATE TABLE t (id INTEGER)");
            execute(db, "INSERT INTO t VALUES (1), (2)");
            image = crashImage(data);
        }
        List<Integer> segments = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Path next;
            try (LocusDB db = open(image)) {
                assertThat(db.durableStore().orElseThrow().recoveryReport().replayedRecords()).isEqualTo(2);
                assertThat(query(db, "SELECT count(*), sum(id) FROM t").toString()).isEqualTo("[[2, 3]]");
                next = crashImage(image);
            }
            image = next;
            segments.add(logSegments(image).size());
        }
        assertThat(segments).as("the records' segment and the start's empty one").containsOnly(2);

        // A write after such starts lands after the records, and both replay.
        Path last;
        try (LocusDB db = open(image)) {
            execute(db, "INSERT INTO t VALUES (3)");
            last = crashImage(image);
        }
        try (LocusDB db = open(last)) {
            assertThat(query(db, "SELECT count(*), sum(id) FROM t").toString()).isEqualTo("[[3, 6]]");
        }
    }

    @Test
    void tablesGroupsAndRowsSurviveACleanRestart() {
        Path data = dir.resolve("db");
        try (LocusDB db = open(data)) {
            execute(db, "CREATE TABLE GROUP g");
            execute(db, "CREATE TABLE t (id INTEGER NOT NULL, name VARCHAR(20), price DECIMAL(10,2), d DATE)"
                    + " PARTITION BY HASH(id) PARTITIONS 2 IN GROUP g");
            execute(db, "INSERT INTO t VALUES (1, 'one', 1.50, DATE '2020-01-01'), (2, NULL, 2.25, NULL)");
            execute(db, "INSERT INTO t VALUES (3, 'three', -3.00, DATE '1999-12-31')");
        }
        try (LocusDB db = open(data)) {
            assertThat(db.durableStore().orElseThrow().recoveryReport().replayedRecords()).isZero();
            assertThat(query(db, "SELECT id, name, price, d FROM t ORDER BY id").toString())
                    .isEqualTo("[[1, one, 1.50, 2020-01-01], [2, null, 2.25, null], [3, three, -3.00, 1999-12-31]]");
            assertThat(db.catalog().table("t").group()).isEqualTo("g");
            assertThat(db.catalog().table("t").version().parts()).hasSize(2);
        }
    }

    @Test
    void timestampColumnsWithAndWithoutTimeZoneSurviveReplayFromTheLogAndACheckpoint() throws IOException {
        Path data = dir.resolve("db");
        String rows = "SELECT id, at, zoned FROM ev ORDER BY id";
        String expected = "[[1, 2024-03-01T13:45:07.250001, 2024-03-01T12:45:07.250001Z], [2, null, null],"
                + " [3, 1999-12-31T23:59:59, 2000-01-01T04:59:59Z]]";
        try (LocusDB db = open(data)) {
            execute(db, "CREATE TABLE ev (id INTEGER, at TIMESTAMP, zoned TIMESTAMP WITH TIME ZONE)");
            execute(db, "INSERT INTO ev VALUES (1, TIMESTAMP '2024-03-01 13:45:07.250001',"
                    + " '2024-03-01 13:45:07.250001+01'), (2, NULL, NULL)");
        }
        Path replayed = crashImage(data);
        try (LocusDB db = open(replayed)) {
            execute(db, "INSERT INTO ev VALUES (3, '1999-12-31 23:59:59', '1999-12-31 23:59:59-05')");
            assertThat(query(db, rows).toString()).isEqualTo(expected);
            db.durableStore().orElseThrow().checkpoint();
        }
        try (LocusDB db = open(replayed)) {
            assertThat(query(db, rows).toString()).isEqualTo(expected);
            assertThat(query(db, "SELECT count(*) FROM ev WHERE at > DATE '2000-01-01'").toString())
                    .isEqualTo("[[1]]");
        }
    }

    @Test
    void aRestartAnswersAtOnceAndReadsTheRestOfTheColumnsIntoMemoryInTheBackground() throws Exception {
        Path data = dir.resolve("db");
        String sums = "SELECT count(*), sum(o_totalprice), max(o_comment), min(o_orderdate) FROM orders";
        String before;
        try (LocusDB db = open(data)) {
            execute(db, "LOAD TPCH SCALE 0.01 PARTS 2");
            before = query(db, sums).toString();
        }
        try (LocusDB db = open(data)) {
            assertThat(query(db, sums).toString()).isEqualTo(before);
            db.durableStore().orElseThrow().awaitPreload();
            assertThat(db.catalog().tables()).allSatisfy(t ->
                    assertThat(t.version().parts()).allSatisfy(p -> assertThat(p.isLoaded()).isTrue()));
            assertThat(query(db, sums).toString()).isEqualTo(before);
        }
    }

    @Test
    void acknowledgedChangesSurviveACrashThroughTheLog() throws IOException {
        Path data = dir.resolve("db");
        try (LocusDB db = open(data)) {
            execute(db, "CREATE TABLE a (x BIGINT)");
            execute(db, "CREATE TABLE b (x BIGINT)");
            execute(db, "INSERT INTO a VALUES (1), (2)");
            execute(db, "DROP TABLE b");
            execute(db, "INSERT INTO a VALUES (3)");
            Path crashed = crashImage(data);
            try (LocusDB after = open(crashed)) {
                assertThat(after.durableStore().orElseThrow().recoveryReport().replayedRecords()).isEqualTo(5);
                assertThat(query(after, "SELECT sum(x), count(*) FROM a").toString()).isEqualTo("[[6, 3]]");
                assertThat(after.catalog().find("b")).isEmpty();
            }
        }
    }

    @Test
    void aCheckpointKeepsMainPartsDeltasAndDeletionsAndReplaysOnlyWhatCameAfter() throws IOException {
        Path data = dir.resolve("db");
        try (LocusDB db = open(data)) {
            execute(db, "CREATE TABLE t (k INTEGER, v VARCHAR(10))");
            execute(db, "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
            // An upsert deletes a delta row: the checkpoint must carry the deletion, not only the rows.
            db.catalog().table("t").upsert(List.<Object[]>of(new Object[] {2L, "B"}), "k");
            db.durableStore().orElseThrow().checkpoint();
            execute(db, "INSERT INTO t VALUES (4, 'd')");
            Path crashed = crashImage(data);
            try (LocusDB after = open(crashed)) {
                assertThat(after.durableStore().orElseThrow().recoveryReport().replayedRecords()).isEqualTo(1);
                assertThat(query(after, "SELECT k, v FROM t ORDER BY k").toString())
                        .isEqualTo("[[1, a], [2, B], [3, c], [4, d]]");
            }
        }
    }

    @Test
    void bulkLoadsAreCheckpointedAndComeBackWithTheSameAnswers() {
        Path data = dir.resolve("db");
        List<List<Object>> before;
        String q = "SELECT l_returnflag, l_linestatus, sum(l_quantity), count(*) FROM lineitem"
                + " GROUP BY l_returnflag, l_linestatus ORDER BY 1, 2";
        try (LocusDB db = open(data)) {
            execute(db, "LOAD TPCH SCALE 0.01");
            before = query(db, q);
        }
        try (LocusDB db = open(data)) {
            assertThat(query(db, q)).isEqualTo(before);
            assertThat(query(db, "SELECT count(*) FROM orders").toString()).isEqualTo("[[15000]]");
        }
    }

    @Test
    void aCopyIsOnDiskWhenAcknowledgedAndLaterChangesToItsRowsReplay() throws IOException {
        Path data = dir.resolve("db");
        Path csv = dir.resolve("items.csv");
        Files.writeString(csv, "id,label\n1,one\n2,two\n3,three\n");
        try (LocusDB db = open(data)) {
            execute(db, "CREATE TABLE items (id BIGINT NOT NULL, label VARCHAR(10))");
            execute(db, "COPY items FROM '" + csv + "' WITH (FORMAT csv, HEADER true)");
            // Logged after the COPY: replaying it needs the copied rows, which the COPY's checkpoint holds.
            execute(db, "DELETE FROM items WHERE id = 2");
            execute(db, "UPDATE items SET label = 'uno' WHERE id = 1");
            Path crashed = crashImage(data);
            try (LocusDB after = open(crashed)) {
                assertThat(query(after, "SELECT id, label FROM items ORDER BY id").toString())
                        .isEqualTo("[[1, uno], [3, three]]");
            }
        }
    }

    @Test
    void aTornRecordAtTheEndOfTheLogIsCutOffWithAWarningNamingTheOffset() throws IOException {
        Path data = dir.resolve("db");
        try (LocusDB db = open(data)) {
            execute(db, "CREATE TABLE t (x BIGINT)");
            execute(db, "INSERT INTO t VALUES (1)");
            Path crashed = crashImage(data);
            Path segment = lastLogSegment(crashed);
            long validEnd = Files.size(segment);
            try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
                f.seek(validEnd);
                f.writeInt(1000); // a record header whose payload never made it
                f.writeInt(12345);
                f.write(new byte[] {5, 0, 0});
            }
            try (LocusDB after = open(crashed)) {
                var report = after.durableStore().orElseThrow().recoveryReport();
                assertThat(report.warnings()).singleElement().asString()
                        .contains("byte offset " + validEnd);
                assertThat(query(after, "SELECT count(*) FROM t").toString()).isEqualTo("[[1]]");
                assertThat(Files.size(segment)).isEqualTo(validEnd);
            }
        }
    }

    @Test
    void aStartsSegmentThatAMachineCrashLeftEmptyOrZeroFilledIsRepairedAndLaterStartsGoOn() throws IOException {
        // A start creates its log segment without waiting for the disk; a machine crash before its first record
        // may leave the file empty or zero-filled. Nothing was acknowledged in it.
        Path data = dir.resolve("db");
        try (LocusDB db = open(data)) {
            execute(db, "CREATE TABLE t (x BIGINT)");
            execute(db, "INSERT INTO t VALUES (1), (2)");
        }
        for (byte[] left : new byte[][] {new byte[0], new byte[LogFormat.SEGMENT_HEADER], new byte[5]}) {
            Path crashed;
            try (LocusDB db = open(data)) {
                crashed = crashImage(data);
            }
            Files.write(lastLogSegment(crashed), left);
            try (LocusDB after = open(crashed)) {
                assertThat(after.durableStore().orElseThrow().recoveryReport().warnings()).singleElement()
                        .asString().contains("rewritten");
                execute(after, "INSERT INTO t VALUES (3)");
            }
            try (LocusDB again = open(crashed)) {
                assertThat(query(again, "SELECT count(*), sum(x) FROM t").toString()).isEqualTo("[[3, 6]]");
            }
        }
    }

    @Test
    void aFlippedByteInsideTheLogStopsTheStartNamingTheFile() throws IOException {
        Path data = dir.resolve("db");
        try (LocusDB db = open(data)) {
            execute(db, "CREATE TABLE t (x BIGINT)");
            execute(db, "INSERT INTO t VALUES (1)");
            execute(db, "INSERT INTO t VALUES (2)");
            Path crashed = crashImage(data);
            Path segment = lastLogSegment(crashed);
            CrashImage.flip(segment, LogFormat.SEGMENT_HEADER + 10);
            assertThatThrownBy(() -> open(crashed)).isInstanceOfSatisfying(DataDirectoryException.class, e -> {
                assertThat(e.problem()).isEqualTo(Problem.CORRUPT_LOG);
                assertThat(e.file()).isEqualTo(segment.toAbsolutePath());
            });
        }
    }

    @Test
    void aFlippedByteInAPartFileStopsTheStartNamingTheFile() throws IOException {
        Path data = dir.resolve("db");
        try (LocusDB db = open(data)) {
            execute(db, "CREATE TABLE t (x BIGINT, s VARCHAR(5))");
            execute(db, "INSERT INTO t VALUES (1, 'x'), (2, 'y')");
        }
        Path part;
        try (Stream<Path> files = Files.list(data.resolve("parts"))) {
            part = files.filter(p -> p.toString().endsWith(".part")).findFirst().orElseThrow();
        }
        CrashImage.flip(part, Files.size(part) - 12);
        assertThatThrownBy(() -> open(data)).isInstanceOfSatisfying(DataDirectoryException.class, e -> {
            assertThat(e.problem()).isEqualTo(Problem.CORRUPT_FILE);
            assertThat(e.file()).isEqualTo(part.toAbsolutePath());
        });
    }

    @Test
    void aMissingPartFileOrManifestStopsTheStart() throws IOException {
        Path data = dir.resolve("db");
        try (LocusDB db = open(data)) {
            execute(db, "CREATE TABLE t (x BIGINT)");
            execute(db, "INSERT INTO t VALUES (1)");
        }
        Path copy = crashImage(data);
        Files.delete(copy.resolve(Manifest.FILE));
        assertThatThrownBy(() -> open(copy)).isInstanceOfSatisfying(DataDirectoryException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.BAD_MANIFEST));
        List<Path> parts = new ArrayList<>();
        try (Stream<Path> files = Files.list(data.resolve("parts"))) {
            parts.addAll(files.filter(p -> p.toString().endsWith(".part")).toList());
        }
        Files.delete(parts.getFirst());
        assertThatThrownBy(() -> open(data)).isInstanceOfSatisfying(DataDirectoryException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.MISSING_FILE));
    }

    @Test
    void aPlacementChangeIsCheckpointedSoAPartRestartsOnItsNewNode() throws Exception {
        Path data = dir.resolve("db");
        try (LocusDB db = open(data)) {
            execute(db, "CREATE TABLE t (x BIGINT) PARTITION BY HASH(x) PARTITIONS 2");
            execute(db, "INSERT INTO t VALUES (1), (2), (3), (4)");
            db.durableStore().orElseThrow().checkpoint();
            int from = db.catalog().table("t").version().parts().get(0).homeNode();
            int to = 1 - from;
            long before = Files.getLastModifiedTime(data.resolve(Manifest.FILE)).toMillis();
            execute(db, "ALTER TABLE t MOVE PART 0 TO NODE " + to);
            long deadline = System.nanoTime() + 10_000_000_000L;
            Manifest manifest = Manifest.read(data.resolve(Manifest.FILE));
            while (manifest.tables().getFirst().parts().getFirst().node() != to && System.nanoTime() < deadline) {
                Thread.sleep(50);
                manifest = Manifest.read(data.resolve(Manifest.FILE));
            }
            assertThat(Files.getLastModifiedTime(data.resolve(Manifest.FILE)).toMillis()).isGreaterThanOrEqualTo(before);
            Path crashed = crashImage(data);
            try (LocusDB after = open(crashed)) {
                assertThat(after.catalog().table("t").version().parts().get(0).homeNode()).isEqualTo(to);
                assertThat(query(after, "SELECT sum(x) FROM t").toString()).isEqualTo("[[10]]");
            }
        }
    }

    @Test
    void aDirectoryInUseIsRefused() {
        Path data = dir.resolve("db");
        try (LocusDB db = open(data)) {
            assertThatThrownBy(() -> open(data)).isInstanceOfSatisfying(DataDirectoryException.class,
                    e -> assertThat(e.problem()).isEqualTo(Problem.IN_USE));
        }
        try (LocusDB again = open(data)) {
            assertThat(again.catalog().tables()).isEmpty();
        }
    }

    @Test
    void concurrentWritersShareFsyncsAndLoseNothing() throws Exception {
        Path data = dir.resolve("db");
        try (LocusDB db = open(data)) {
            execute(db, "CREATE TABLE t (w INTEGER, i INTEGER)");
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                int writer = w;
                writers.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < 50; i++) {
                        execute(db, "INSERT INTO t VALUES (" + writer + ", " + i + ")");
                    }
                }));
            }
            for (Thread t : writers) {
                t.join();
            }
            Path crashed = crashImage(data);
            try (LocusDB after = open(crashed)) {
                assertThat(query(after, "SELECT count(*), count(DISTINCT w * 1000 + i) FROM t").toString())
                        .isEqualTo("[[200, 200]]");
            }
        }
    }
}
