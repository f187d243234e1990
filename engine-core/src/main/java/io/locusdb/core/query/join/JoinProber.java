package io.locusdb.core.query.join;

import io.locusdb.core.vector.Chunk;
import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.storage.type.ColumnType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One task's probing of a {@link JoinHashTable}: batches of probe rows in, joined rows out (left columns, then
 * right; left only for SEMI and ANTI). Candidate pairs from the hash chains are checked against the residual
 * condition a batch at a time; probe rows without a surviving pair are null-extended (when the join keeps the probe
 * side's unmatched rows) or kept (ANTI); build rows that matched are marked for {@link #emitUnmatchedBuildRows}.
 * Not thread-safe: one per task (the residual's expressions keep buffers).
 */
public final class JoinProber {
    /** Where joined rows go; the vectors are the caller's to keep. */
    @FunctionalInterface
    public interface Output {
        void accept(Chunk joined);
    }

    private final JoinHashTable table;
    private final JoinType type;
    private final boolean probeIsLeft;
    private final int[] probeKeyIndexes;
    private final Expr residual;
    private final List<ColumnType> probeTypes;
    private final List<ColumnType> buildTypes;
    private final Output output;
    private final Runnable checkpoint;
    private int[] pairProbe = new int[1024];
    private int[] pairBuild = new int[1024];
    private boolean[] probeMatched = new boolean[1024];
    private int pairCount;

    /**
     * @param probeIsLeft     whether the probe side is the join's left input (for SEMI and ANTI: else the left
     *                        rows are the build rows, which come out in {@link #emitUnmatchedBuildRows})
     * @param probeKeyIndexes the probe side's key columns, in the order of the table's keys
     * @param residual        the rest of the condition over the joined row (left, then right columns), or null
     * @param checkpoint      run before each chunk of candidate pairs is checked: where a cancelled query stops
     *                        (a join without keys makes every pair of rows a candidate, so one probe batch can
     *                        stand for billions of pairs)
     */
    public JoinProber(JoinHashTable table, JoinType type, boolean probeIsLeft, int[] probeKeyIndexes, Expr residual,
                      List<ColumnType> probeTypes, List<ColumnType> buildTypes, Output output, Runnable checkpoint) {
        this.table = table;
        this.type = type;
        this.probeIsLeft = probeIsLeft;
        this.probeKeyIndexes = probeKeyIndexes;
        this.residual = residual;
        this.probeTypes = List.copyOf(probeTypes);
        this.buildTypes = List.copyOf(buildTypes);
        this.output = output;
        this.checkpoint = checkpoint;
    }

    private boolean keepsUnmatchedProbe() {
        return probeIsLeft ? type.keepsUnmatchedLeft() : type.keepsUnmatchedRight();
    }

    /**
     * Whether matched build rows are marked, for build rows that come out after the probes: the unmatched ones of an
     * outer join keeping the build side, the matched (SEMI) or unmatched (ANTI) ones of a join that built its left.
     */
    private boolean keepsUnmatchedBuild() {
        return probeIsLeft ? type.keepsUnmatchedRight() : type.keepsUnmatchedLeft() || !type.outputsRight();
    }

    /** A SEMI or ANTI join that built its left side: the output is build rows, decided after every probe. */
    private boolean emitsBuildSideOnly() {
        return !probeIsLeft && !type.outputsRight();
    }

    /** Candidate pairs checked and emitted at a time: a key shared by many rows cannot blow a batch up. */
    private static final int PAIRS_PER_CHUNK = 1 << 16;

    /** Joins {@code rows} probe rows. */
    public void probe(Chunk chunk) {
        ColumnVector[] probe = chunk.vectors();
        int rows = chunk.rows();
        ColumnVector[] keys = new ColumnVector[probeKeyIndexes.length];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = probe[probeKeyIndexes[k]];
        }
        boolean trackProbe = probeIsLeft && !type.outputsRight() || keepsUnmatchedProbe();
        // A build row a SEMI or ANTI join has matched once is decided: other pairs with it need no residual check.
        boolean skipMatched = emitsBuildSideOnly();
        if (trackProbe) {
            if (probeMatched.length < rows) {
                probeMatched = new boolean[rows];
            }
            Arrays.fill(probeMatched, 0, rows, false);
        }
        pairCount = 0;
        if (table.singleLong()) {
            long[] values = keys[0].longs();
            boolean[] nulls = keys[0].nulls();
            for (int p = 0; p < rows; p++) {
                if (nulls[p]) {
                    continue;
                }
                for (int r = table.firstLong(values[p]); r >= 0; r = table.nextLong(r)) {
                    if (!skipMatched || !table.isMatched(r)) {
                        addPair(probe, p, r, trackProbe);
                    }
                }
            }
        }
        for (int p = 0; p < rows && !table.singleLong(); p++) {
            if (JoinKeys.anyNull(keys, p)) {
                continue;
            }
            long h = JoinKeys.hash(keys, p);
            for (int r = table.first(keys, p, h); r >= 0; r = table.next(r, keys, p, h)) {
                if (!skipMatched || !table.isMatched(r)) {
                    addPair(probe, p, r, trackProbe);
                }
            }
        }
        if (pairCount > 0) {
            pairs(probe, pairCount, trackProbe);
            pairCount = 0;
        }
        switch (type) {
            case SEMI, ANTI -> {
                if (probeIsLeft) {
                    emitProbeRows(probe, rows, type == JoinType.SEMI, false);
                }
            }
            default -> {
                if (keepsUnmatchedProbe()) {
                    emitProbeRows(probe, rows, false, true);
                }
            }
        }
    }

    /** Records a candidate pair; a full chunk is checked and emitted at once. */
    private void addPair(ColumnVector[] probe, int p, int r, boolean trackProbe) {
        if (pairCount == pairProbe.length) {
            pairProbe = Arrays.copyOf(pairProbe, pairCount * 2);
            pairBuild = Arrays.copyOf(pairBuild, pairCount * 2);
        }
        pairProbe[pairCount] = p;
        pairBuild[pairCount] = r;
        if (++pairCount == PAIRS_PER_CHUNK) {
            pairs(probe, pairCount, trackProbe);
            pairCount = 0;
        }
    }

    /** Checks a chunk of candidate pairs against the residual, records matches, emits the joined rows. */
    private void pairs(ColumnVector[] probe, int pairs, boolean trackProbe) {
        checkpoint.run();
        boolean emitPairs = type.outputsRight();
        List<ColumnVector> joined = emitPairs || residual != null ? joined(probe, pairs) : null;
        if (residual != null) {
            ColumnVector keep = residual.eval(joined.toArray(ColumnVector[]::new), pairs);
            int kept = 0;
            int[] selected = new int[pairs];
            for (int i = 0; i < pairs; i++) {
                if (!keep.isNull(i) && keep.longs()[i] != 0) {
                    selected[kept] = i;
                    pairProbe[kept] = pairProbe[i];
                    pairBuild[kept] = pairBuild[i];
                    kept++;
                }
            }
            if (kept < pairs && emitPairs) {
                for (ColumnVector c : joined) {
                    c.compact(selected, kept);
                }
            }
            pairs = kept;
        }
        if (keepsUnmatchedBuild()) {
            for (int i = 0; i < pairs; i++) {
                table.markMatched(pairBuild[i]);
            }
        }
        if (trackProbe) {
            for (int i = 0; i < pairs; i++) {
                probeMatched[pairProbe[i]] = true;
            }
        }
        if (emitPairs && pairs > 0) {
            for (ColumnVector c : joined) {
                c.setSize(pairs);
            }
            output.accept(Chunk.of(joined, pairs));
        }
    }

    /** The candidate pairs as joined rows: left columns, then right. */
    private List<ColumnVector> joined(ColumnVector[] probe, int pairs) {
        List<ColumnVector> probeSide = new ArrayList<>(probe.length);
        for (ColumnVector c : probe) {
            probeSide.add(c.gather(pairProbe, pairs));
        }
        List<ColumnVector> buildSide = new ArrayList<>(table.columns().length);
        for (ColumnVector c : table.columns()) {
            buildSide.add(c.gather(pairBuild, pairs));
        }
        List<ColumnVector> out = new ArrayList<>(probeSide.size() + buildSide.size());
        out.addAll(probeIsLeft ? probeSide : buildSide);
        out.addAll(probeIsLeft ? buildSide : probeSide);
        return out;
    }

    /** Probe rows whose matched flag equals {@code matched}; with {@code nullExtended} the build side is NULL. */
    private void emitProbeRows(ColumnVector[] probe, int rows, boolean matched, boolean nullExtended) {
        int[] selected = new int[rows];
        int n = 0;
        for (int p = 0; p < rows; p++) {
            if (probeMatched[p] == matched) {
                selected[n++] = p;
            }
        }
        if (n == 0) {
            return;
        }
        List<ColumnVector> probeSide = new ArrayList<>(probe.length);
        for (ColumnVector c : probe) {
            probeSide.add(c.gather(selected, n));
        }
        if (!nullExtended) {
            output.accept(Chunk.of(probeSide, n));
            return;
        }
        List<ColumnVector> nulls = nullColumns(buildTypes, n);
        List<ColumnVector> out = new ArrayList<>(probeSide.size() + nulls.size());
        out.addAll(probeIsLeft ? probeSide : nulls);
        out.addAll(probeIsLeft ? nulls : probeSide);
        output.accept(Chunk.of(out, n));
    }

    /**
     * After every probe: the build rows no probe row matched, null-extended (outer joins keeping the build side), or
     * the matched (SEMI) or unmatched (ANTI) build rows of a join that built its left side, as they are.
     */
    public void emitUnmatchedBuildRows() {
        if (!keepsUnmatchedBuild()) {
            return;
        }
        boolean wanted = emitsBuildSideOnly() && type == JoinType.SEMI;
        int[] selected = new int[Math.max(1, table.rows())];
        int n = 0;
        for (int r = 0; r < table.rows(); r++) {
            if (table.isMatched(r) == wanted) {
                selected[n++] = r;
            }
        }
        if (n == 0) {
            return;
        }
        List<ColumnVector> buildSide = new ArrayList<>();
        for (ColumnVector c : table.columns()) {
            buildSide.add(c.gather(selected, n));
        }
        if (emitsBuildSideOnly()) {
            output.accept(Chunk.of(buildSide, n));
            return;
        }
        List<ColumnVector> nulls = nullColumns(probeTypes, n);
        List<ColumnVector> out = new ArrayList<>();
        out.addAll(probeIsLeft ? nulls : buildSide);
        out.addAll(probeIsLeft ? buildSide : nulls);
        output.accept(Chunk.of(out, n));
    }

    private static List<ColumnVector> nullColumns(List<ColumnType> types, int rows) {
        List<ColumnVector> out = new ArrayList<>(types.size());
        for (ColumnType t : types) {
            ColumnVector v = new ColumnVector(t, Math.max(1, rows));
            for (int i = 0; i < rows; i++) {
                v.setNull(i);
            }
            v.setSize(rows);
            out.add(v);
        }
        return out;
    }
}
