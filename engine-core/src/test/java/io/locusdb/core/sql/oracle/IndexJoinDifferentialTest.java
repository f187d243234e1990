package io.locusdb.core.sql.oracle;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Joins that probe a keyed table with few keys, which LocusDB answers through the table's key index (an index join),
 * against DuckDB: keys of BIGINT, DATE and a composite key's first column (INTEGER), build sides holding repeated
 * keys, NULLs and keys the table lacks, inner and semi joins, joins with further predicates on either side, and joins
 * that must not use the index (outer, anti). Between rounds the keyed table takes upserts and deletes and is now and
 * then folded into main parts, so the index of main rows and of delta rows are both read. {@value #ROUNDS} rounds;
 * every difference fails.
 */
class IndexJoinDifferentialTest {
    static final int ROUNDS = Integer.getInteger("locus.indexjoin.rounds", 30);
    private static final long SEED = Long.getLong("locus.indexjoin.seed", 20_261_128L);
    private static final int FACTS = 30_000;
    private static final int DAYS = 4_000;
    private static final LocalDate FIRST_DAY = LocalDate.of(2019, 6, 1);

    private static OracleDatabases databases;

    @BeforeAll
    static void open() {
        databases = OracleDatabases.open();
        both("CREATE TABLE facts (id BIGINT PRIMARY KEY, grp INTEGER, amount DECIMAL(12,2), day INTEGER)",
                " PARTITION BY HASH(id) PARTITIONS 2");
        both("INSERT INTO facts SELECT g, CAST(g % 13 AS INTEGER), CAST(g % 1000 AS DECIMAL(12,2)) / 10,"
                + " CAST(g % 4000 AS INTEGER) FROM generate_series(1, " + FACTS + ") AS s(g)", "");
        both("CREATE TABLE days (d DATE PRIMARY KEY, n INTEGER, holiday BOOLEAN)", "");
        List<String> days = new ArrayList<>();
        for (int n = 0; n < DAYS; n++) {
            days.add("(DATE '" + FIRST_DAY.plusDays(n) + "', " + n + ", " + (n % 7 == 0) + ")");
        }
        both("INSERT INTO days VALUES " + String.join(", ", days), "");
        both("CREATE TABLE pairs (a INTEGER, b INTEGER, v VARCHAR, PRIMARY KEY (a, b))", "");
        both("INSERT INTO pairs SELECT CAST((g - g % 4) / 4 AS INTEGER), CAST(g % 4 AS INTEGER),"
                + " 'v' || CAST(g % 17 AS VARCHAR)"
                + " FROM generate_series(0, 19999) AS s(g)", "");
        both("CREATE TABLE probe (k BIGINT, a INTEGER, d DATE, tag VARCHAR)", "");
        databases.execute("ALTER TABLE facts MERGE PARTS");
        databases.execute("ALTER TABLE facts PARTITION INTO 2 PARTS");
    }

    @AfterAll
    static void close() {
        databases.close();
    }

    private static void both(String sql, String locusSuffix) {
        databases.execute(sql + locusSuffix);
        databases.duck.execute(sql);
    }

    @Test
    void joinsProbingKeyedTablesAgreeWithDuckDb() {
        Random random = new Random(SEED);
        for (int round = 0; round < ROUNDS; round++) {
            writes(random);
            if (round % 10 == 9) {
                databases.execute("ALTER TABLE facts MERGE PARTS");
                databases.execute("ALTER TABLE facts PARTITION INTO 2 PARTS");
            }
            both("DELETE FROM probe", "");
            both("INSERT INTO probe VALUES " + probeRows(random, 1 + random.nextInt(40)), "");
            joins(random);
        }
    }

    private static void writes(Random random) {
        for (int i = 0; i < 3; i++) {
            long id = 1 + random.nextInt(FACTS + 500);
            both(switch (random.nextInt(3)) {
                case 0 -> "INSERT INTO facts VALUES (" + id + ", " + random.nextInt(13) + ", 1.5, "
                        + random.nextInt(DAYS)
                        + ") ON CONFLICT (id) DO UPDATE SET amount = facts.amount"
                        + " + excluded.amount";
                case 1 -> "DELETE FROM facts WHERE id = " + id;
                default -> "UPDATE facts SET grp = grp + 100 WHERE id BETWEEN " + id + " AND " + (id + 3);
            }, "");
        }
    }

    private static String probeRows(Random random, int count) {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String k = random.nextInt(12) == 0 ? "NULL" : String.valueOf(1 + random.nextInt(FACTS + 1000));
            String a = random.nextInt(12) == 0 ? "NULL" : String.valueOf(random.nextInt(5200));
            String d = "DATE '" + FIRST_DAY.plusDays(random.nextInt(DAYS + 200)) + "'";
            rows.add("(" + k + ", " + a + ", " + d + ", 't" + random.nextInt(4) + "')");
        }
        // Repeated keys: the build side holds a key more than once.
        rows.add(rows.getFirst());
        return String.join(", ", rows);
    }

    private static void joins(Random random) {
        int grp = random.nextInt(13);
        long lo = 1 + random.nextInt(FACTS);
        for (String sql : List.of(
                "SELECT p.tag, f.id, f.grp, f.amount FROM probe p JOIN facts f ON f.id = p.k",
                "SELECT f.id, f.amount FROM facts f, probe p WHERE f.id = p.k AND f.grp <> " + grp
                        + " AND p.tag <> 't1'",
                "SELECT count(*), sum(f.amount), min(f.day) FROM facts f WHERE f.id IN (SELECT k FROM probe)",
                "SELECT f.id FROM facts f WHERE f.id BETWEEN " + lo + " AND " + (lo + 5000)
                        + " AND EXISTS (SELECT 1 FROM probe p WHERE p.k = f.id)",
                "SELECT p.tag, count(*), sum(f.amount) FROM probe p JOIN facts f ON f.id = p.k GROUP BY p.tag",
                "SELECT p.k, f.id FROM probe p LEFT JOIN facts f ON f.id = p.k",
                "SELECT count(*) FROM facts f WHERE f.id NOT IN (SELECT k FROM probe WHERE k IS NOT NULL)",
                "SELECT p.d, d.holiday FROM probe p JOIN days d ON d.d = p.d",
                "SELECT p.a, q.b, q.v FROM probe p JOIN pairs q ON q.a = p.a",
                "SELECT p.a, q.v FROM probe p JOIN pairs q ON q.a = p.a AND q.b = CAST(p.k % 4 AS INTEGER)",
                "SELECT f.id, d.holiday FROM probe p JOIN facts f ON f.id = p.k JOIN days d ON d.n = f.day")) {
            ResultComparison.assertAgrees(databases.session, databases.duck, sql, false);
        }
    }
}
