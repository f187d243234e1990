package io.locusdb.bench.seed;

import io.locusdb.bench.sim.Scenario;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The adaptive-placement paper's benchmark tables (§8): {@code TBLn (ID BIGINT, COL1..COL8 INTEGER)}, ID the row
 * number (unique, the join key), COLk uniform random integers of bitcase 16 + k (17 to 24 bits, so from 131 072 to
 * 16.7 million distinct values), a hash partitioning on ID; placed as a scenario says.
 *
 * <p>Scenario nodes beyond the engine's are folded onto it ({@code node mod nodes}), so that a 4-socket figure runs
 * scaled down on {@code fake:2}. A table that starts in several parts is split and placed by the operator's
 * statements ({@code ALTER TABLE ... PARTITION INTO / MOVE PART}), so the placer treats that layout as declared.
 */
public final class SeedTables {
    public static final int COLUMNS = 8;
    public static final int FIRST_BITCASE = 17;
    private static final int BATCH = 50_000;

    private SeedTables() {
    }

    public static int bits(int column) {
        if (column < 1 || column > COLUMNS) {
            throw new IllegalArgumentException("the benchmark tables have COL1 to COL" + COLUMNS + ", not COL" + column);
        }
        return FIRST_BITCASE + column - 1;
    }

    /** Creates, fills and places every table of the scenario. */
    public static void load(LocusDB db, Scenario scenario, long rows, long seed) {
        int nodes = db.catalog().memory().topology().nodeCount();
        try (Session session = db.connect()) {
            for (Scenario.TableSpec spec : scenario.tables()) {
                String name = spec.name();
                StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(name).append(" (ID BIGINT");
                for (int c = 1; c <= COLUMNS; c++) {
                    ddl.append(", COL").append(c).append(" INTEGER");
                }
                session.execute(ddl.append(")").toString()).close();
                fill(db, name, rows, new SplittableRandom(seed * 1_000_003 + name.hashCode()));
                List<Integer> where = spec.nodes();
                // Fold the inserted rows into one main part (the scan kernels' packed codes) on the first node.
                session.execute("ALTER TABLE " + name + " MERGE PARTS TO NODE " + where.getFirst() % nodes).close();
                if (where.size() > 1) {
                    session.execute("ALTER TABLE " + name + " PARTITION INTO " + where.size() + " PARTS").close();
                    for (int p = 0; p < where.size(); p++) {
                        session.execute("ALTER TABLE " + name + " MOVE PART " + p + " TO NODE " + where.get(p) % nodes)
                                .close();
                    }
                }
            }
        }
    }

    private static void fill(LocusDB db, String table, long rows, SplittableRandom random) {
        for (long from = 0; from < rows; from += BATCH) {
            long to = Math.min(rows, from + BATCH);
            List<Object[]> batch = new ArrayList<>((int) (to - from));
            for (long id = from; id < to; id++) {
                Object[] row = new Object[COLUMNS + 1];
                row[0] = id;
                for (int c = 1; c <= COLUMNS; c++) {
                    row[c] = random.nextInt(1 << bits(c));
                }
                batch.add(row);
            }
            db.catalog().table(table).insert(batch);
        }
    }
}
