package io.locusdb.core.sql.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keyed tables against DuckDB, which has PRIMARY KEY and ON CONFLICT too: the same random sequence of inserts,
 * upserts (DO UPDATE with the existing and the proposed row, DO NOTHING), updates and deletes runs in both, and
 * after every step both agree on which statements were refused for a duplicate key and on point, IN-list and
 * range lookups, prepared lookups (one key, and an IN list of parameters with a repeated key and a NULL) and a join
 * probing the keyed table. LocusDB's tables are hash-partitioned over
 * the fake two nodes and folded into main parts now and then, so lookups read both main rows' and delta rows'
 * indexes. {@value #STEPS} steps; every difference fails.
 */
class KeyedTableDifferentialTest {
    static final int STEPS = Integer.getInteger("locus.keyed.steps", 120);
    private static final long SEED = Long.getLong("locus.keyed.seed", 20_261_128L);
    private static final int KEYS = 400;

    private static OracleDatabases databases;

    @BeforeAll
    static void open() {
        databases = OracleDatabases.open();
        String accounts = "CREATE TABLE kv (id BIGINT PRIMARY KEY, tag VARCHAR, amount DECIMAL(12,2), n INTEGER)";
        databases.execute(accounts + " PARTITION BY HASH(id) PARTITIONS 2");
        databases.duck.execute(accounts);
        String lines = "CREATE TABLE kl (a INTEGER, b VARCHAR, note VARCHAR, PRIMARY KEY (a, b))";
        databases.execute(lines);
        databases.duck.execute(lines);
    }

    @AfterAll
    static void close() {
        databases.close();
    }

    @Test
    void randomWritesAndLookupsAgreeWithDuckDb() {
        Random random = new Random(SEED);
        int refused = 0;
        for (int step = 0; step < STEPS; step++) {
            String sql = randomWrite(random);
            boolean duckRefused = runInDuck(sql);
            boolean locusRefused = runInLocus(sql);
            assertThat(locusRefused).as("refused by LocusDB as by DuckDB: %s", sql).isEqualTo(duckRefused);
            refused += locusRefused ? 1 : 0;
            if (step % 25 == 24) {
                databases.execute("ALTER TABLE kv MERGE PARTS");
                databases.execute("ALTER TABLE kv PARTITION INTO 2 PARTS");
            }
            lookups(random);
        }
        assertThat(refused).as("some statements hit a duplicate key").isPositive();
        ResultComparison.assertAgrees(databases.session, databases.duck, "SELECT * FROM kv", false);
        ResultComparison.assertAgrees(databases.session, databases.duck, "SELECT * FROM kl", false);
    }

    private static String randomWrite(Random random) {
        return switch (random.nextInt(9)) {
            case 0, 1 -> "INSERT INTO kv VALUES " + kvRows(random, 1 + random.nextInt(4));
            case 2, 3 -> "INSERT INTO kv VALUES " + distinctKvRows(random, 1 + random.nextInt(5))
                    + " ON CONFLICT (id) DO UPDATE SET amount = kv.amount + excluded.amount, tag = excluded.tag,"
                    + " n = kv.n + 1";
            case 4 -> "INSERT INTO kv VALUES " + kvRows(random, 1 + random.nextInt(5)) + " ON CONFLICT DO NOTHING";
            case 5 -> "UPDATE kv SET n = n * 2, tag = 'u' WHERE id BETWEEN " + random.nextInt(KEYS) + " AND "
                    + random.nextInt(KEYS);
            case 6 -> "DELETE FROM kv WHERE id = " + random.nextInt(KEYS) + " OR id = " + random.nextInt(KEYS);
            case 7 -> "INSERT INTO kl VALUES " + klRows(random, 1 + random.nextInt(3))
                    + (random.nextBoolean() ? " ON CONFLICT DO NOTHING" : "");
            default -> "INSERT INTO kv SELECT id + " + (1 + random.nextInt(50)) + ", tag, amount, n FROM kv WHERE id"
                    + " < " + random.nextInt(60) + " ON CONFLICT DO NOTHING";
        };
    }

    private static String kvRows(Random random, int count) {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add("(" + random.nextInt(KEYS) + ", '" + (char) ('a' + random.nextInt(5)) + "', "
                    + (random.nextInt(2000) - 1000) / 100.0 + ", " + random.nextInt(10) + ")");
        }
        return String.join(", ", rows);
    }

    /**
     * Rows with distinct keys: DO UPDATE of one key twice in one statement is an error in PostgreSQL (and LocusDB,
     * see KeyedTableTest) but not in DuckDB, which keeps the first proposed row.
     */
    private static String distinctKvRows(Random random, int count) {
        List<String> rows = new ArrayList<>();
        List<Integer> keys = new ArrayList<>();
        while (keys.size() < count) {
            int k = random.nextInt(KEYS);
            if (!keys.contains(k)) {
                keys.add(k);
                rows.add("(" + k + ", '" + (char) ('a' + random.nextInt(5)) + "', "
                        + (random.nextInt(2000) - 1000) / 100.0 + ", " + random.nextInt(10) + ")");
            }
        }
        return String.join(", ", rows);
    }

    private static String klRows(Random random, int count) {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add("(" + random.nextInt(30) + ", '" + (char) ('p' + random.nextInt(4)) + "', 'n"
                    + random.nextInt(100) + "')");
        }
        return String.join(", ", rows);
    }

    /** True when DuckDB refused the statement for a key (constraint) violation; any other failure fails. */
    private static boolean runInDuck(String sql) {
        try {
            databases.duck.execute(sql);
            return false;
        } catch (IllegalStateException e) {
            String message = e.getMessage();
            if (message.contains("Constraint Error") || message.contains("Duplicate key")
                    || message.contains("can not update the same row twice")
                    || message.contains("cannot affect row a second time")) {
                return true;
            }
            throw e;
        }
    }

    private static boolean runInLocus(String sql) {
        try {
            databases.execute(sql);
            return false;
        } catch (LocusSqlException e) {
            if (e.state() == SqlState.UNIQUE_VIOLATION || e.state() == SqlState.CARDINALITY_VIOLATION) {
                return true;
            }
            throw e;
        }
    }

    private static void lookups(Random random) {
        int k = random.nextInt(KEYS);
        ResultComparison.assertAgrees(databases.session, databases.duck, "SELECT * FROM kv WHERE id = " + k,
                false);
        ResultComparison.assertAgrees(databases.session, databases.duck, "SELECT id, amount FROM kv WHERE id IN ("
                + random.nextInt(KEYS) + ", " + random.nextInt(KEYS) + ", " + k + ")", false);
        int lo = random.nextInt(KEYS);
        ResultComparison.assertAgrees(databases.session, databases.duck, "SELECT count(*), sum(amount), max(tag)"
                + " FROM kv WHERE id BETWEEN " + lo + " AND " + (lo + random.nextInt(20)) + " AND n < 8", false);
        ResultComparison.assertAgreesPrepared(databases.session, databases.duck,
                "SELECT tag, n FROM kv WHERE id = ?", false,
                List.of(new Object[] {(long) random.nextInt(KEYS)}, new Object[] {(long) k}));
        ResultComparison.assertAgreesPrepared(databases.session, databases.duck,
                "SELECT id, tag, amount FROM kv WHERE id IN (?, ?, ?)", false,
                List.of(new Object[] {(long) random.nextInt(KEYS), (long) k, (long) k},
                        new Object[] {(long) random.nextInt(KEYS), null, (long) random.nextInt(KEYS)}));
        ResultComparison.assertAgrees(databases.session, databases.duck, "SELECT kl.a, kl.b, kv.tag FROM kl JOIN"
                + " kv ON kv.id = kl.a WHERE kl.a < " + random.nextInt(30), false);
        ResultComparison.assertAgrees(databases.session, databases.duck, "SELECT note FROM kl WHERE a = "
                + random.nextInt(30) + " AND b = 'q'", false);
    }
}
