package io.locusdb.core.query.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.TestStorage;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Comparisons of a dictionary-encoded string column with a constant, computed once per dictionary code, give what
 * the pushed-down filter gives row by row: for every operator, with the constant on either side, across the
 * dictionaries of several parts.
 */
class EncodedComparisonTest {
    private static LocusDB db;
    private static Session session;

    @BeforeAll
    static void load() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withDeltaMerge(null));
        session = db.connect();
        session.execute("LOAD TPCH SCALE 0.01 PARTS 3").close();
    }

    @AfterAll
    static void close() {
        session.close();
        db.close();
    }

    private static long count(String sql) {
        try (QueryResult r = session.execute(sql)) {
            return ((Number) r.toList().getFirst().getFirst()).longValue();
        }
    }

    @Test
    void aComparisonInAnExpressionCountsWhatTheSameFilterSelects() {
        for (String op : List.of("=", "<>", "<", "<=", ">", ">=")) {
            for (String constant : List.of("'1-URGENT'", "'3-MEDIUM'", "'9-NONE'", "''")) {
                long filtered = count("SELECT count(*) FROM orders WHERE o_orderpriority " + op + " " + constant);
                long computed = count("SELECT sum(CASE WHEN o_orderpriority " + op + " " + constant
                        + " THEN 1 ELSE 0 END) FROM orders");
                long mirrored = count("SELECT sum(CASE WHEN " + constant + " " + mirror(op)
                        + " o_orderpriority THEN 1 ELSE 0 END) FROM orders");
                assertThat(computed).as("o_orderpriority %s %s", op, constant).isEqualTo(filtered);
                assertThat(mirrored).as("%s %s o_orderpriority", constant, mirror(op)).isEqualTo(filtered);
            }
        }
        assertThat(count("SELECT count(*) FROM orders WHERE o_orderpriority = '1-URGENT'")).isPositive();
    }

    private static String mirror(String op) {
        return switch (op) {
            case "<" -> ">";
            case "<=" -> ">=";
            case ">" -> "<";
            case ">=" -> "<=";
            default -> op;
        };
    }
}
