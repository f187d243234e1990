package io.locusdb.core.sql.oracle;

import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.type.ColumnType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Joins against DuckDB: four generated tables (NULLs in every nullable column, duplicate and skewed keys, one table
 * in two main parts on the fake two nodes, one in two delta-only parts, one in a single part, one tiny) and
 * {@value #QUERIES} random queries joining two to four of them (self-joins included) with inner, left, right and
 * full joins on integer, string and composite keys, residual and non-equi conditions, filters on either side, and
 * GROUP BY over the join. Every difference and every LocusDB error fails. {@code -Dlocus.join.seed} and
 * {@code -Dlocus.join.queries} pick another run.
 */
class JoinDifferentialTest {
    static final int QUERIES = Integer.getInteger("locus.join.queries", 300);
    private static final long SEED = Long.getLong("locus.join.seed", 20_261_125L);
    private static final Schema SCHEMA = Schema.of(ColumnDef.notNull("id", ColumnType.BIGINT),
            ColumnDef.of("k", ColumnType.INTEGER), ColumnDef.of("s", ColumnType.VARCHAR),
            ColumnDef.of("d", ColumnType.decimal(12, 2)), ColumnDef.of("grp", ColumnType.INTEGER));
    private static final String[] TABLES = {"j0", "j1", "j2", "j3"};
    private static final int[] ROWS = {400, 300, 200, 25};
    private static final String[] STRINGS = {"a", "b", "c", "ab", "", "zz", "Q"};

    private static LocusDB locus;
    private static Session session;
    private static DuckOracle duck;

    @BeforeAll
    static void load() {
        locus = OracleTables.openLocus();
        session = locus.connect();
        duck = DuckOracle.open();
        Random random = new Random(SEED);
        for (int t = 0; t < TABLES.length; t++) {
            List<Object[]> rows = new ArrayList<>();
            for (int i = 0; i < ROWS[t]; i++) {
                int kDomain = 4 + t * 5;
                // Skewed: a third of the rows share key 0.
                Integer k = random.nextInt(10) == 0 ? null : random.nextInt(3) == 0 ? 0 : random.nextInt(kDomain);
                String s = random.nextInt(8) == 0 ? null : STRINGS[random.nextInt(STRINGS.length)];
                BigDecimal d = random.nextInt(9) == 0 ? null
                        : BigDecimal.valueOf(random.nextInt(200_000) - 100_000, 2);
                Integer grp = random.nextInt(12) == 0 ? null : random.nextInt(5);
                rows.add(new Object[] {(long) i, k, s, d, grp});
            }
            PartitionSpec spec = t == 1 ? new PartitionSpec.Hash("id", 2) : PartitionSpec.none();
            Table table = locus.catalog().createTable(TABLES[t], SCHEMA, spec, new InitialPlacement.RoundRobin(),
                    null);
            table.insert(OracleTables.physicalRows(SCHEMA, rows));
            if (t == 0) {
                execute("ALTER TABLE j0 PARTITION INTO 2 PARTS");
                execute("ALTER TABLE j0 MOVE PART 1 TO NODE 1");
            } else if (t == 2) {
                execute("ALTER TABLE j2 MERGE PARTS TO NODE 1");
            }
            duck.createTable(TABLES[t], SCHEMA);
            duck.insert(TABLES[t], SCHEMA, rows);
        }
    }

    private static void execute(String sql) {
        try (QueryResult r = session.execute(sql)) {
            r.updateCount();
        }
    }

    @AfterAll
    static void close() {
        if (session != null) {
            session.close();
        }
        if (locus != null) {
            locus.close();
        }
        if (duck != null) {
            duck.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> randomJoinsAgreeWithDuckDB() {
        Random random = new Random(SEED * 31 + 7);
        List<DynamicTest> tests = new ArrayList<>();
        for (int q = 0; q < QUERIES; q++) {
            String sql = query(random);
            tests.add(dynamicTest(String.format("join %03d: %s", q + 1, sql),
                    () -> ResultComparison.assertAgrees(session, duck, sql, false)));
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> handWrittenJoinsAgreeWithDuckDB() {
        return Stream.of(
                "SELECT a.id, b.id FROM j3 a JOIN j3 b ON a.k = b.k",
                "SELECT a.id, b.id FROM j0 a LEFT JOIN j3 b ON a.k = b.k AND a.s = b.s WHERE a.id < 50",
                "SELECT a.id, b.id FROM j3 a FULL JOIN j2 b ON a.s = b.s AND a.d < b.d",
                "SELECT a.id, b.id, c.id FROM j3 a JOIN j3 b ON a.grp = b.grp JOIN j3 c ON b.k = c.k",
                "SELECT count(*) FROM j0 a, j1 b, j2 c WHERE a.k = b.k AND b.s = c.s",
                "SELECT a.grp, count(*), sum(b.d) FROM j0 a RIGHT JOIN j1 b ON a.id = b.id GROUP BY a.grp",
                "SELECT a.id, b.id FROM j3 a, j3 b WHERE a.k < b.k",
                "SELECT a.id FROM j3 a CROSS JOIN j3 b",
                "SELECT x.g, count(*) FROM (SELECT grp AS g, k FROM j0 WHERE k IS NOT NULL) x JOIN j1 y ON x.k = y.k"
                        + " GROUP BY x.g",
                "SELECT a.id, b.id FROM j0 a JOIN j1 b ON a.d = b.d",
                "SELECT a.id, b.id FROM j0 a JOIN j1 b ON a.k = b.id",
                "SELECT a.id, b.k FROM j3 a LEFT JOIN (SELECT k, count(*) AS c FROM j2 GROUP BY k) b ON a.k = b.k",
                "SELECT a.id FROM j3 a JOIN j2 b ON a.k = b.k WHERE b.s IS NULL OR a.s = 'a'",
                // OR branches over both sides: each side is filtered by what every branch asks of it first.
                "SELECT a.id, b.id FROM j0 a, j1 b WHERE (a.k = b.k AND a.grp = 1 AND b.s = 'a')"
                        + " OR (a.k = b.k AND a.grp = 2 AND b.d > 0)",
                "SELECT a.id, b.id FROM j0 a JOIN j2 b ON a.k = b.k AND ((a.s = 'b' AND b.grp < 2)"
                        + " OR (a.s IS NULL AND b.grp IS NULL) OR a.d > b.d)",
                "SELECT count(*) FROM j0 a JOIN j1 b ON a.grp = b.grp WHERE (a.k < 3 AND b.k > 5) OR (a.k > 8)")
                .map(sql -> dynamicTest(sql, () -> ResultComparison.assertAgrees(session, duck, sql, false)));
    }

    private static final String[] KEYS = {"k", "s", "grp", "id", "k+s"};

    static String query(Random random) {
        int n = 2 + random.nextInt(3);
        List<String> aliases = new ArrayList<>();
        StringBuilder from = new StringBuilder();
        for (int i = 0; i < n; i++) {
            String table = TABLES[random.nextInt(TABLES.length)];
            // Large four-way products are slow to compare; the tiny table keeps them small.
            if (n == 4 && i >= 2) {
                table = "j3";
            }
            String alias = "t" + i;
            aliases.add(alias);
            if (i == 0) {
                from.append(table).append(' ').append(alias);
                continue;
            }
            String type = switch (random.nextInt(20)) {
                case 0, 1, 2, 3 -> "LEFT JOIN";
                case 4, 5, 6 -> "RIGHT JOIN";
                case 7, 8, 9 -> "FULL JOIN";
                default -> "JOIN";
            };
            String other = aliases.get(random.nextInt(i));
            String key = KEYS[random.nextInt(KEYS.length)];
            String on = key.equals("k+s") ? other + ".k = " + alias + ".k AND " + other + ".s = " + alias + ".s"
                    : other + "." + key + " = " + alias + "." + key;
            if (key.equals("id") && random.nextBoolean()) {
                on = other + ".k = " + alias + ".id";
            }
            int extra = random.nextInt(10);
            if (extra < 2) {
                on += " AND " + other + ".d < " + alias + ".d";
            } else if (extra == 2) {
                on += " AND " + alias + ".grp > 1";
            } else if (extra == 3 && n == 2) {
                on = other + ".k < " + alias + ".k AND " + other + ".grp = 1";
            }
            from.append(' ').append(type).append(' ').append(table).append(' ').append(alias).append(" ON ")
                    .append(on);
        }
        String where = "";
        if (random.nextBoolean()) {
            String a = aliases.get(random.nextInt(n));
            where = " WHERE " + switch (random.nextInt(5)) {
                case 0 -> a + ".k < " + random.nextInt(8);
                case 1 -> a + ".s IS NOT NULL";
                case 2 -> a + ".d > " + (random.nextInt(200) - 100) + ".5";
                case 3 -> a + ".grp = " + random.nextInt(5);
                default -> a + ".id IS NULL OR " + a + ".k = 0";
            };
        }
        if (random.nextInt(5) < 2) {
            String g = aliases.get(random.nextInt(n));
            String v = aliases.get(random.nextInt(n));
            String key = random.nextBoolean() ? g + ".grp" : g + ".s";
            return "SELECT " + key + ", count(*), count(" + v + ".k), sum(" + v + ".d), min(" + v + ".s) FROM "
                    + from + where + " GROUP BY " + key;
        }
        List<String> columns = new ArrayList<>();
        String[] names = {"id", "k", "s", "d", "grp"};
        int c = 2 + random.nextInt(3);
        for (int i = 0; i < c; i++) {
            columns.add(aliases.get(random.nextInt(n)) + "." + names[random.nextInt(names.length)]);
        }
        return "SELECT " + String.join(", ", columns) + " FROM " + from + where;
    }
}
