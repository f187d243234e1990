package io.locusdb.core.sql.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.locusdb.core.result.QueryResult;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * PostgreSQL's {@code SELECT DISTINCT ON (...)} against DuckDB, which has it too: the first row per group in the
 * query's ORDER BY, on one and two expressions with NULLs among them, with {@code *}, ordinals and output names,
 * after a GROUP BY, inside a subquery and a view, and with a LIMIT.
 */
class DistinctOnDifferentialTest {
    private static final long SEED = 20_261_128L;
    private static final String[] WORDS = {"apple", "pear", "plum", "fig", "kiwi"};
    private static OracleDatabases databases;

    @BeforeAll
    static void load() {
        databases = OracleDatabases.open();
        String create = "CREATE TABLE f (id INTEGER, n INTEGER, x DOUBLE, s VARCHAR, d DATE)";
        databases.execute(create);
        databases.duck.execute(create);
        Random random = new Random(SEED);
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            rows.add("(" + i + ", " + maybe(random, String.valueOf(random.nextInt(12))) + ", "
                    + maybe(random, String.valueOf(random.nextInt(10_000) / 100.0)) + ", "
                    + maybe(random, "'" + WORDS[random.nextInt(WORDS.length)] + "'") + ", "
                    + maybe(random, "DATE '" + LocalDate.of(2020, 1, 1).plusDays(random.nextInt(60)) + "'") + ")");
        }
        String insert = "INSERT INTO f VALUES " + String.join(", ", rows);
        databases.execute(insert);
        databases.duck.execute(insert);
    }

    private static String maybe(Random random, String value) {
        return random.nextInt(10) == 0 ? "NULL" : value;
    }

    @AfterAll
    static void close() {
        if (databases != null) {
            databases.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> distinctOnAgreesWithDuckDb() {
        return Stream.of(
                "SELECT DISTINCT ON (s) s, id, n FROM f ORDER BY s, n DESC NULLS LAST, id",
                "SELECT DISTINCT ON (s, n) * FROM f ORDER BY s, n, id DESC",
                "SELECT DISTINCT ON (1) s AS k, id FROM f ORDER BY 1, 2 DESC",
                "SELECT DISTINCT ON (k) s AS k, max(id) AS m, count(*) AS c FROM f GROUP BY s, n ORDER BY k, m",
                "select distinct on (d) d, x, id from f where x > 10 order by d, x desc nulls last, id",
                "SELECT DISTINCT ON (s) s, id FROM f ORDER BY s, id LIMIT 3",
                "SELECT q.s, q.id FROM (SELECT DISTINCT ON (s) s, id FROM f ORDER BY s, id DESC) q WHERE q.id > 10",
                "SELECT count(*) FROM (SELECT DISTINCT ON (s, d) s, d, id FROM f) q",
                "SELECT 'select distinct on (s)' AS t, count(*) FROM f")
                .map(sql -> dynamicTest(sql, () -> ResultComparison.assertAgrees(databases.session, databases.duck,
                        sql, sql.contains("ORDER BY") && !sql.contains(") q"))));
    }

    @Test
    void aViewWithDistinctOnReadsAsItsQuery() {
        databases.execute("CREATE VIEW latest AS SELECT DISTINCT ON (s) s, id FROM f ORDER BY s, id DESC");
        try (QueryResult view = databases.session.execute("SELECT * FROM latest ORDER BY s");
             QueryResult query = databases.session.execute(
                     "SELECT DISTINCT ON (s) s, id FROM f ORDER BY s, id DESC")) {
            assertThat(view.toList()).isEqualTo(query.toList()).hasSize(WORDS.length + 1);
        }
    }
}
