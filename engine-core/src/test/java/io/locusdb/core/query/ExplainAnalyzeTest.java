package io.locusdb.core.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.storage.TestStorage;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * EXPLAIN ANALYZE runs the statement and shows the plan with what happened: the rows it returned, how long it took,
 * every pipeline that ran with the rows that reached each of its operators, and the tasks by class and node. The
 * statement's effects are PostgreSQL's: a query's rows are read and thrown away.
 */
class ExplainAnalyzeTest {
    private static LocusDB db;

    @BeforeAll
    static void open() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withExecutor(b -> b.pinWorkers(false)));
        execute("CREATE TABLE sales (id BIGINT PRIMARY KEY, region VARCHAR(8), amount INTEGER)"
                + " PARTITION BY HASH(id) PARTITIONS 2");
        execute("INSERT INTO sales SELECT g, 'r' || CAST(g % 5 AS VARCHAR), CAST(g % 100 AS INTEGER)"
                + " FROM generate_series(1, 10000) AS s(g)");
        execute("CREATE TABLE regions (name VARCHAR(8), manager VARCHAR(8))");
        execute("INSERT INTO regions VALUES ('r0', 'ann'), ('r1', 'bob'), ('r2', 'cy')");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static void execute(String sql) {
        try (Session s = db.connect(); QueryResult r = s.execute(sql)) {
            r.updateCount();
        }
    }

    private static String text(String sql) {
        try (Session s = db.connect(); QueryResult r = s.execute(sql)) {
            return r.toList().stream().map(row -> row.getFirst().toString()).collect(Collectors.joining("\n"));
        }
    }

    private static long count(String text, String regex) {
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(text);
        assertThat(m.find()).as("%s in\n%s", regex, text).isTrue();
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    @Test
    void aJoinAndAggregationShowTheRowsThatReachedEachStepOfEachPipeline() {
        String sql = "SELECT r.manager, count(*), sum(s.amount) FROM sales s JOIN regions r ON r.name = s.region"
                + " WHERE s.amount < 50 GROUP BY r.manager";
        String plain = text("EXPLAIN " + sql);
        String analyzed = text("EXPLAIN ANALYZE " + sql);
        assertThat(analyzed).startsWith(plain);
        assertThat(count(analyzed, "^Actual: (\\d+) rows")).isEqualTo(3);
        assertThat(analyzed).containsPattern("planning [\\d.]+ ms \\(parse [\\d.]+, validate [\\d.]+, convert"
                + " [\\d.]+, rewrite and join order [\\d.]+, physical [\\d.]+\\), execution [\\d.]+ ms");
        // 5,000 sales rows pass the filter; 3,000 of them have a region in the build side.
        assertThat(count(analyzed, "source scan of sales \\(2 parts\\): ([\\d,]+) rows")).isEqualTo(5000);
        assertThat(count(analyzed, "^\\s+hash join probe \\(INNER.*: ([\\d,]+) rows in")).isEqualTo(5000);
        assertThat(count(analyzed, "^\\s+hash aggregate.*: ([\\d,]+) rows in")).isEqualTo(3000);
        assertThat(count(analyzed, "source scan of regions \\(1 part\\): ([\\d,]+) rows")).isEqualTo(3);
        assertThat(count(analyzed, "^\\s+tasks iv-scan: (\\d+) ")).isEqualTo(3);
        // Which node each task ran on depends on stealing; that every task is counted on some node does not.
        assertThat(analyzed).containsPattern(
                "tasks materialize: \\d+ \\(node [01]: \\d+(, node 1: \\d+)?\\), \\d+ stolen");
        assertThat(text("EXPLAIN (ANALYZE) " + sql)).startsWith(plain).contains("Actual: 3 rows");
    }

    @Test
    void aStreamedScanAndAKeyLookupAreMeasuredToo() {
        String streamed = text("EXPLAIN ANALYZE SELECT id FROM sales WHERE amount = 7");
        assertThat(count(streamed, "^Actual: ([\\d,]+) rows")).isEqualTo(100);
        assertThat(streamed).contains("stream to the client: 100 rows");
        String lookup = text("EXPLAIN ANALYZE SELECT region FROM sales WHERE id = 42");
        assertThat(lookup).contains("Key lookup on sales").contains("Actual: 1 row in");
    }

    @Test
    void explainAnalyzeOfAStatementThatIsNotAQueryIsRefusedAndChangesNothing() {
        assertThatThrownBy(() -> execute("EXPLAIN ANALYZE DELETE FROM sales WHERE id = 1"))
                .isInstanceOf(LocusSqlException.class);
        assertThat(text("SELECT count(*) FROM sales WHERE id = 1")).isEqualTo("1");
        assertThat(List.of(text("EXPLAIN ANALYSE SELECT 1"))).first().asString().contains("Actual: 1 row");
    }
}
