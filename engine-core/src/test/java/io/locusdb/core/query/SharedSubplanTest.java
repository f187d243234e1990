package io.locusdb.core.query;

import static io.locusdb.core.query.SqlTestDatabase.execute;
import static io.locusdb.core.query.SqlTestDatabase.explain;
import static io.locusdb.core.query.SqlTestDatabase.open;
import static io.locusdb.core.query.SqlTestDatabase.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusDB;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A CTE or view that a query reads twice, or the same subquery in two places, is computed once per execution and
 * read by both: EXPLAIN shows it as shared, EXPLAIN ANALYZE shows its table scanned once, and the answers are those
 * of the query computed twice.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SharedSubplanTest {
    private LocusDB db;

    @BeforeAll
    void load() {
        db = open(null);
        execute(db, "CREATE TABLE x (k INTEGER NOT NULL, v BIGINT) PARTITION BY HASH(k) PARTITIONS 2");
        StringBuilder insert = new StringBuilder("INSERT INTO x VALUES ");
        for (int k = 0; k < 2_000; k++) {
            insert.append(k == 0 ? "" : ", ").append("(").append(k).append(", ")
                    .append(k % 17 == 0 ? "NULL" : Long.toString(k % 101)).append(")");
        }
        execute(db, insert.toString());
    }

    @AfterAll
    void close() {
        db.close();
    }

    private static final String GROUPS = "SELECT k % 10 AS g, count(*) AS c, sum(v) AS s FROM x GROUP BY k % 10";

    @Test
    void aCteReadTwiceIsComputedOnce() {
        String sql = "WITH t AS (" + GROUPS + ") SELECT a.g, a.c, b.s FROM t a JOIN t b ON a.g = b.g + 1"
                + " ORDER BY a.g";
        assertThat(explain(db, sql)).contains("Shared #1: computed once").contains("Shared #1 (again");
        assertThat(scansOf("x", sql)).isEqualTo(1);
        List<List<Object>> groups = rows(db, GROUPS + " ORDER BY 1");
        List<List<Object>> expected = new ArrayList<>();
        for (int g = 1; g < 10; g++) {
            expected.add(List.of(g, groups.get(g).get(1), groups.get(g - 1).get(2)));
        }
        assertThat(rows(db, sql)).isEqualTo(expected);
    }

    @Test
    void aViewReadTwiceAsInTpchQ15IsComputedOnce() {
        execute(db, "CREATE VIEW totals (g, total) AS SELECT k % 7, sum(v) FROM x GROUP BY k % 7");
        try {
            String sql = "SELECT g, total FROM totals WHERE total = (SELECT max(total) FROM totals)";
            assertThat(scansOf("x", sql)).isEqualTo(1);
            List<List<Object>> all = rows(db, "SELECT g, total FROM totals ORDER BY total DESC, g");
            assertThat(rows(db, sql)).containsExactly(all.getFirst());
        } finally {
            execute(db, "DROP VIEW totals");
        }
    }

    @Test
    void theSameSubqueryInTwoPlacesIsComputedOnce() {
        String sql = "SELECT count(*) FROM (" + GROUPS + ") a WHERE a.s > (SELECT avg(s) FROM (" + GROUPS + ") b)";
        assertThat(scansOf("x", sql)).isEqualTo(1);
        List<List<Object>> groups = rows(db, GROUPS);
        double average = groups.stream().mapToLong(r -> (Long) r.get(2)).average().orElseThrow();
        long above = groups.stream().filter(r -> (Long) r.get(2) > average).count();
        assertThat(rows(db, sql)).containsExactly(List.of(above));
    }

    @Test
    void aSubqueryWithRandomValuesIsComputedAtEachOccurrence() {
        String sql = "WITH t AS (SELECT k % 3 AS g, sum(v + floor(random() * 0)) AS c FROM x GROUP BY k % 3)"
                + " SELECT a.g, a.c, b.c FROM t a JOIN t b ON a.g = b.g ORDER BY a.g";
        assertThat(explain(db, sql)).doesNotContain("Shared #");
        assertThat(scansOf("x", sql)).isEqualTo(2);
        assertThat(rows(db, sql)).hasSize(3);
    }

    @Test
    void subqueriesThatOnlyFilterAScanAreNotKept() {
        String sql = "WITH t AS (SELECT k, v FROM x WHERE v > 50) SELECT count(*) FROM t a JOIN t b ON a.k = b.k";
        assertThat(explain(db, sql)).doesNotContain("Shared #");
        assertThat(rows(db, sql)).isEqualTo(rows(db, "SELECT count(*) FROM x WHERE v > 50"));
    }

    /** How many pipelines EXPLAIN ANALYZE shows scanning {@code table}. */
    private long scansOf(String table, String sql) {
        String analyzed = rows(db, "EXPLAIN ANALYZE " + sql).stream().map(r -> r.getFirst().toString())
                .collect(Collectors.joining("\n"));
        Matcher m = Pattern.compile("source scan of " + table + " \\(").matcher(analyzed);
        long n = 0;
        while (m.find()) {
            n++;
        }
        assertThat(n).as("scans of %s in%n%s", table, analyzed).isPositive();
        return n;
    }
}
