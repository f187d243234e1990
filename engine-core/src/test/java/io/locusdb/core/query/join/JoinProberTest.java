package io.locusdb.core.query.join;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.vector.Chunk;
import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.storage.type.ColumnType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hash join's probing on hand-made vectors, for every join type: NULL keys never match, duplicates multiply,
 * unmatched rows are kept or dropped as the type says. SEMI and ANTI (what IN and EXISTS subqueries become) are
 * checked here since SQL reaches them only once subqueries are decorrelated.
 */
class JoinProberTest {
    /** Left: keys 1, 2, 2, NULL, 5. Right: keys 2, 2, 3, NULL. */
    private static final Long[] LEFT = {1L, 2L, 2L, null, 5L};
    private static final Long[] RIGHT = {2L, 2L, 3L, null};

    private static ColumnVector longs(Long... values) {
        ColumnVector v = new ColumnVector(ColumnType.BIGINT, values.length);
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                v.setNull(i);
            } else {
                v.setLong(i, values[i]);
            }
        }
        v.setSize(values.length);
        return v;
    }

    /** Rows as "left,right" pairs of keys (null written as -). */
    private static List<String> join(JoinType type, boolean probeLeft) {
        ColumnVector left = longs(LEFT);
        ColumnVector right = longs(RIGHT);
        ColumnVector[] build = {probeLeft ? right : left};
        ColumnVector[] probe = {probeLeft ? left : right};
        boolean keepBuild = probeLeft ? type.keepsUnmatchedRight()
                : type.keepsUnmatchedLeft() || !type.outputsRight();
        JoinHashTable table = new JoinHashTable(build, build[0].size(), new int[] {0}, keepBuild, null);
        List<String> rows = new ArrayList<>();
        JoinProber prober = new JoinProber(table, type, probeLeft, new int[] {0}, null,
                List.of(ColumnType.BIGINT), List.of(ColumnType.BIGINT), joined -> {
                    for (int i = 0; i < joined.rows(); i++) {
                        StringBuilder row = new StringBuilder();
                        for (ColumnVector c : joined.vectors()) {
                            row.append(row.isEmpty() ? "" : ",").append(c.isNull(i) ? "-" : c.longs()[i]);
                        }
                        rows.add(row.toString());
                    }
                }, () -> { });
        prober.probe(new Chunk(probe, probe[0].size()));
        prober.emitUnmatchedBuildRows();
        return rows;
    }

    @Test
    void everyJoinTypeFromEitherSide() {
        for (boolean probeLeft : new boolean[] {true, false}) {
            assertThat(join(JoinType.INNER, probeLeft)).containsExactlyInAnyOrder("2,2", "2,2", "2,2", "2,2");
            assertThat(join(JoinType.LEFT, probeLeft)).containsExactlyInAnyOrder("1,-", "2,2", "2,2", "2,2", "2,2",
                    "-,-", "5,-");
            assertThat(join(JoinType.RIGHT, probeLeft)).containsExactlyInAnyOrder("2,2", "2,2", "2,2", "2,2", "-,3",
                    "-,-");
            assertThat(join(JoinType.FULL, probeLeft)).containsExactlyInAnyOrder("1,-", "2,2", "2,2", "2,2", "2,2",
                    "-,-", "5,-", "-,3", "-,-");
        }
        // SEMI and ANTI give the left rows whichever side is built: built, the left rows come out after the probes.
        for (boolean probeLeft : new boolean[] {true, false}) {
            assertThat(join(JoinType.SEMI, probeLeft)).containsExactlyInAnyOrder("2", "2");
            assertThat(join(JoinType.ANTI, probeLeft)).containsExactlyInAnyOrder("1", "-", "5");
        }
    }

    @Test
    void aLargeTableWithItsBloomFilterFindsEveryKeyAndNoOther() {
        largeTableFindsEveryKey(1, false);
    }

    @Test
    void aTablePartitionedByHashAndItsCopyFindWhatTheWholeTableFinds() {
        largeTableFindsEveryKey(4, false);
        largeTableFindsEveryKey(8, true);
    }

    private static void largeTableFindsEveryKey(int partitions, boolean copy) {
        // 200,000 build rows: keys 0, 3, 6, ... each twice, plus NULLs; large enough for the filter in front.
        int rows = 200_000;
        ColumnVector build = new ColumnVector(ColumnType.BIGINT, rows);
        for (int r = 0; r < rows; r++) {
            if (r % 1000 == 999) {
                build.setNull(r);
            } else {
                build.setLong(r, (r / 2) * 3L);
            }
        }
        build.setSize(rows);
        JoinHashTable whole = JoinHashTable.partitioned(new ColumnVector[] {build}, rows, new int[] {0}, false,
                null, partitions, p -> JoinHashTable.IndexMemory.HEAP, JoinHashTable.PartitionBuilds.SEQUENTIAL);
        assertThat(whole.partitions()).isEqualTo(partitions);
        JoinHashTable table = copy ? whole.copyInto(JoinHashTable.IndexMemory.HEAP) : whole;
        assertThat(table.partitions()).isEqualTo(partitions);
        int probes = 400_000;
        ColumnVector probe = new ColumnVector(ColumnType.BIGINT, probes);
        for (int p = 0; p < probes; p++) {
            probe.setLong(p, p);
        }
        probe.setSize(probes);
        long[] matches = new long[probes];
        List<Long> buildOrder = new ArrayList<>();
        JoinProber prober = new JoinProber(table, JoinType.INNER, true, new int[] {0}, null,
                List.of(ColumnType.BIGINT), List.of(ColumnType.BIGINT), joined -> {
                    for (int i = 0; i < joined.rows(); i++) {
                        matches[(int) joined.column(0).longs()[i]]++;
                        if (joined.column(0).longs()[i] == 3L * 500) {
                            buildOrder.add(joined.column(1).longs()[i]);
                        }
                    }
                }, () -> { });
        prober.probe(new Chunk(new ColumnVector[] {probe}, probes));
        for (int p = 0; p < probes; p++) {
            long expected = 0;
            if (p % 3 == 0 && p / 3 < rows / 2) {
                int first = (p / 3) * 2;
                expected = (first % 1000 == 999 ? 0 : 1) + ((first + 1) % 1000 == 999 ? 0 : 1);
            }
            assertThat(matches[p]).as("matches of key %d", p).isEqualTo(expected);
        }
        assertThat(buildOrder).containsExactly(1500L, 1500L);
    }

    @Test
    void doubleKeysMatchByValueThroughTheGeneralTable() {
        ColumnVector build = new ColumnVector(ColumnType.DOUBLE, 3);
        build.setDouble(0, 0.0);
        build.setDouble(1, Double.NaN);
        build.setDouble(2, 1.5);
        build.setSize(3);
        ColumnVector probe = new ColumnVector(ColumnType.DOUBLE, 3);
        probe.setDouble(0, -0.0);
        probe.setDouble(1, Double.NaN);
        probe.setDouble(2, 2.5);
        probe.setSize(3);
        JoinHashTable table = new JoinHashTable(new ColumnVector[] {build}, 3, new int[] {0}, false, null);
        List<String> rows = new ArrayList<>();
        new JoinProber(table, JoinType.INNER, true, new int[] {0}, null, List.of(ColumnType.DOUBLE),
                List.of(ColumnType.DOUBLE), joined -> {
                    for (int i = 0; i < joined.rows(); i++) {
                        rows.add(joined.column(0).doubles()[i] + "=" + joined.column(1).doubles()[i]);
                    }
                }, () -> { }).probe(new Chunk(new ColumnVector[] {probe}, 3));
        assertThat(rows).containsExactlyInAnyOrder("-0.0=0.0", "NaN=NaN");
    }
}
