package io.locusdb.bench.seed;

import io.locusdb.bench.sim.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The adaptive-placement paper's benchmark tables (§8): {@code TBLn (ID BIGINT, COL1..COL8 INTEGER)}, ID the row
 * number (unique, the join key), COLk uniform random integers of bitcase 16 + k (17 to 24 bits, so from 131 072 to
 * 16.7 million distinct values); placed as a scenario says.
 *
 * <p>Scenario nodes beyond the engine's are folded onto it ({@code node mod nodes}), so that a 4-socket figure runs
 * scaled down on {@code fake:2}. A table that starts in several parts is split and placed by the operator's
 * statements ({@code ALTER TABLE ... PARTITION INTO / MOVE PART}), so the placer treats that layout as declared.
 */
public final class SeedTables {
    public static final int COLUMNS = 8;
    public static final int FIRST_BITCASE = 17;
    static final int BATCH = 50_000;

    private SeedTables() {
    }

    public static int bits(int column) {
        if (column < 1 || column > COLUMNS) {
            throw new IllegalArgumentException("the benchmark tables have COL1 to COL" + COLUMNS + ", not COL" + column);
        }
        return FIRST_BITCASE + column - 1;
    }

    public static String createTable(String name) {
        StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(name).append(" (ID BIGINT");
        for (int c = 1; c <= COLUMNS; c++) {
            ddl.append(", COL").append(c).append(" INTEGER");
        }
        return ddl.append(")").toString();
    }

    /** The random source of one table's rows: the same seed and name give the same table anywhere. */
    public static SplittableRandom random(String table, long seed) {
        return new SplittableRandom(seed * 1_000_003 + table.hashCode());
    }

    /** Rows {@code from} (inclusive) to {@code to} of a table, drawn in order from {@code random}. */
    public static List<Object[]> rows(long from, long to, SplittableRandom random) {
        List<Object[]> batch = new ArrayList<>((int) (to - from));
        for (long id = from; id < to; id++) {
            Object[] row = new Object[COLUMNS + 1];
            row[0] = id;
            for (int c = 1; c <= COLUMNS; c++) {
                row[c] = random.nextInt(1 << bits(c));
            }
            batch.add(row);
        }
        return batch;
    }

    /**
     * The statements that place a filled table: its rows folded into one main part (the scan kernels' packed codes)
     * on the first node, then split and moved when it starts in several parts.
     */
    public static List<String> placement(Scenario.TableSpec spec, int nodes) {
        List<String> out = new ArrayList<>();
        List<Integer> where = spec.nodes();
        out.add("ALTER TABLE " + spec.name() + " MERGE PARTS TO NODE " + where.getFirst() % nodes);
        if (where.size() > 1) {
            out.add("ALTER TABLE " + spec.name() + " PARTITION INTO " + where.size() + " PARTS");
            for (int p = 0; p < where.size(); p++) {
                out.add("ALTER TABLE " + spec.name() + " MOVE PART " + p + " TO NODE " + where.get(p) % nodes);
            }
        }
        return out;
    }
}
