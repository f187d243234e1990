package io.locusdb.core.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.TestQueries;
import io.locusdb.core.query.expr.ArrayText;
import io.locusdb.core.storage.TestStorage;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Arrays (as PostgreSQL writes them), set-returning functions in FROM, and the aggregates that collect values:
 * what catalog queries of tools and everyday SQL use.
 */
class ArraysAndSetFunctionsTest {
    private static LocusDB db;

    @BeforeAll
    static void open() {
        db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()));
        try (Session s = db.connect()) {
            s.execute("CREATE TABLE t (id BIGINT NOT NULL, grp VARCHAR, name VARCHAR, x INTEGER)"
                    + " PARTITION BY HASH(id) PARTITIONS 2");
            s.execute("INSERT INTO t VALUES (1, 'a', 'pear', 3), (2, 'a', 'apple', NULL), (3, 'b', 'fig', 1),"
                    + " (4, 'a', 'apple', 2), (5, 'b', NULL, 5)");
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static List<List<Object>> rows(String sql) {
        return TestQueries.rows(db, sql);
    }

    private static Object value(String sql) {
        List<List<Object>> rows = rows(sql);
        assertThat(rows).as(sql).hasSize(1);
        return rows.getFirst().getFirst();
    }

    @Test
    void arrayTextReadsAndWritesPostgresqlsSyntax() {
        assertThat(ArrayText.parse("{1, 2 ,NULL}")).containsExactly("1", "2", null);
        assertThat(ArrayText.parse("{\"a b\",\"c\\\"d\",\"NULL\",\"\"}")).containsExactly("a b", "c\"d", "NULL", "");
        assertThat(ArrayText.parse("{}")).isEmpty();
        assertThat(ArrayText.format(Arrays.asList("a b", null, "NULL", "", "x,y", "q\"")))
                .isEqualTo("{\"a b\",NULL,\"NULL\",\"\",\"x,y\",\"q\\\"\"}");
        for (String bad : List.of("1,2", "{1,2", "{1,,2}", "{\"a}", "{a\"b}")) {
            assertThatThrownBy(() -> ArrayText.parse(bad)).as(bad).isInstanceOfSatisfying(LocusSqlException.class,
                    e -> assertThat(e.state()).isEqualTo(SqlState.INVALID_TEXT_REPRESENTATION));
        }
        assertThat(ArrayText.parse("{\\NULL,a\\ ,\\,}")).containsExactly("NULL", "a ", ",");
        assertThatThrownBy(() -> ArrayText.parse("{{1},{2}}")).isInstanceOfSatisfying(LocusSqlException.class,
                e -> assertThat(e.state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED));
    }

    @Test
    void arraysAreBuiltCastSubscriptedAndMeasured() {
        assertThat(value("SELECT ARRAY[1, 2, 3][2]")).isEqualTo(2);
        assertThat(value("SELECT ARRAY['x', 'y'][3]")).isNull();
        assertThat(value("SELECT ARRAY['a b', 'c']")).isEqualTo("{\"a b\",c}");
        assertThat(value("SELECT CAST('{ 7, 8 ,NULL}' AS INTEGER ARRAY)")).isEqualTo("{7,8,NULL}");
        assertThat(value("SELECT CAST('{7,8}' AS INTEGER ARRAY)[2] + 1")).isEqualTo(9);
        assertThat(value("SELECT CARDINALITY(ARRAY[5, 6])")).isEqualTo(2);
        assertThat(rows("SELECT array_lower(ARRAY[5, 6], 1), array_upper(ARRAY[5, 6], 1),"
                + " array_length(ARRAY[5, 6], 1), array_upper(ARRAY[5, 6], 2),"
                + " array_upper(CAST('{}' AS INTEGER ARRAY), 1)"))
                .containsExactly(Arrays.asList(1, 2, 2, null, null));
        assertThatThrownBy(() -> rows("SELECT CAST('{1,x}' AS INTEGER ARRAY)"))
                .isInstanceOf(LocusSqlException.class).hasMessageContaining("'x'");
    }

    @Test
    void anyAndAllCompareWithEveryElement() {
        assertThat(rows("SELECT 2 = ANY(CAST('{1,2}' AS INTEGER ARRAY)), 3 = ANY(CAST('{1,2}' AS INTEGER ARRAY)),"
                + " 5 > ALL(CAST('{1,2}' AS INTEGER ARRAY)), 2 > ALL(CAST('{1,2}' AS INTEGER ARRAY)),"
                + " 1 = ANY(CAST('{2,NULL}' AS INTEGER ARRAY)), 1 = ANY(CAST('{}' AS INTEGER ARRAY))"))
                .containsExactly(Arrays.asList(true, false, true, false, null, false));
        assertThat(value("SELECT 1 = ANY(CAST('{1.4}' AS DECIMAL(2,1) ARRAY))")).isEqualTo(false);
        assertThat(value("SELECT 1 < ANY(CAST('{3000000000}' AS BIGINT ARRAY))")).isEqualTo(true);
        assertThatThrownBy(() -> rows("SELECT ARRAY[2] < ARRAY[10]")).isInstanceOfSatisfying(
                LocusSqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED));
        assertThat(rows("SELECT id FROM t WHERE name = ANY(string_to_array('fig,pear', ',')) ORDER BY id"))
                .containsExactly(List.of(1L), List.of(3L));
    }

    @Test
    void formatAndRegclassFollowPostgresql() {
        assertThat(value("SELECT format('%s-%I-%L-%%-%2$s-%4$L', 'a', 'B c', NULL, 'it''s')"))
                .isEqualTo("a-\"B c\"-NULL-%-B c-'it''s'");
        assertThat(value("SELECT CAST(format('%I.%I', 'public', 't') AS regclass)"))
                .isEqualTo(value("SELECT CAST('t' AS regclass)"));
        assertThatThrownBy(() -> rows("SELECT format('%99999999999$s', 'a')"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.INVALID_PARAMETER));
        assertThatThrownBy(() -> rows("SELECT format()")).isInstanceOf(LocusSqlException.class);
        assertThatThrownBy(() -> rows("SELECT format('%s %s', 'only one')"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.INVALID_PARAMETER));
    }

    @Test
    void stringToArrayAndBackFollowPostgresql() {
        assertThat(value("SELECT string_to_array('a,b,,c', ',')")).isEqualTo("{a,b,\"\",c}");
        assertThat(value("SELECT string_to_array('a,b,,c', ',', '')")).isEqualTo("{a,b,NULL,c}");
        assertThat(value("SELECT string_to_array('', ',')")).isEqualTo("{}");
        assertThat(value("SELECT string_to_array('abc', '')")).isEqualTo("{abc}");
        assertThat(value("SELECT array_to_string(string_to_array('a,b,,c', ',', ''), '-')")).isEqualTo("a-b-c");
        assertThat(value("SELECT array_to_string(string_to_array('a,b,,c', ',', ''), '-', '*')"))
                .isEqualTo("a-b-*-c");
        assertThat(value("SELECT string_to_array('x;y', ';')[2]")).isEqualTo("y");
    }

    @Test
    void generateSeriesIsATableInFrom() {
        assertThat(rows("SELECT * FROM generate_series(1, 3)")).containsExactly(List.of(1), List.of(2), List.of(3));
        assertThat(rows("SELECT i FROM generate_series(10, 1, -4) AS i")).containsExactly(List.of(10), List.of(6),
                List.of(2));
        assertThat(rows("SELECT * FROM generate_series(3, 1)")).isEmpty();
        assertThat(value("SELECT sum(g) FROM generate_series(1, 1000000) AS s(g)")).isEqualTo(500000500000L);
        assertThat(value("SELECT count(*) FROM generate_series(5000000000, 5000000009)")).isEqualTo(10L);
        // The first argument may start with a function call (TABLE(...) spells it for the grammar).
        assertThat(value("SELECT count(*) FROM TABLE(generate_series(abs(-2), 4))")).isEqualTo(3L);
        assertThat(rows("SELECT name, k FROM t, generate_series(1, 2) k WHERE id = 3 ORDER BY k"))
                .containsExactly(List.of("fig", 1), List.of("fig", 2));
        assertThat(rows("SELECT * FROM generate_series(9223372036854775806, 9223372036854775807)"))
                .containsExactly(List.of(9223372036854775806L), List.of(9223372036854775807L));
        assertThat(value("SELECT count(*) FROM generate_series(5, 0, -9223372036854775808)")).isEqualTo(1L);
        assertThatThrownBy(() -> rows("SELECT * FROM generate_series(-1, 9223372036854775807)"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.PROGRAM_LIMIT_EXCEEDED));
        assertThatThrownBy(() -> rows("SELECT * FROM generate_series(1, 3, 0)"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.INVALID_PARAMETER));
    }

    @Test
    void unnestAndScalarFunctionsInFrom() {
        assertThat(rows("SELECT * FROM UNNEST(ARRAY['p', 'q']) WITH ORDINALITY AS u(v, n)"))
                .containsExactly(List.of("p", 1), List.of("q", 2));
        assertThat(rows("SELECT u FROM unnest(ARRAY[3, 4]) u")).containsExactly(List.of(3), List.of(4));
        // A scalar function in FROM is a one-row table named after its alias (Grafana's search-path query).
        assertThat(rows("SELECT i, s[i] FROM generate_series(1, 2) AS i, string_to_array('x,y', ',') s"))
                .containsExactly(List.of(1, "x"), List.of(2, "y"));
    }

    @Test
    void aLateralSeriesTakesItsArgumentsFromEachRowAndUnnestOfAnotherTablesRowsIsRefusedByName() {
        // x is 3, NULL, 1, 2, 5: a row per value of 1..x, none for NULL.
        assertThat(rows("SELECT count(*), sum(g) FROM t, LATERAL TABLE(generate_series(1, t.x)) g"))
                .containsExactly(List.of(11L, 25L));
        assertThatThrownBy(() -> rows("SELECT * FROM t, LATERAL unnest(string_to_array(t.name, 'p')) AS u(piece)"))
                .isInstanceOfSatisfying(LocusSqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED));
    }

    @Test
    void stringAggAndArrayAggCollectTheirGroupsValues() {
        assertThat(rows("SELECT grp, string_agg(name, ', ' ORDER BY name) FROM t GROUP BY grp ORDER BY grp"))
                .containsExactly(List.of("a", "apple, apple, pear"), List.of("b", "fig"));
        assertThat(value("SELECT string_agg(DISTINCT name, '|' ORDER BY name DESC) FROM t"))
                .isEqualTo("pear|fig|apple");
        assertThat(rows("SELECT grp, array_agg(x ORDER BY x) FROM t GROUP BY grp ORDER BY grp"))
                .containsExactly(List.of("a", "{2,3,NULL}"), List.of("b", "{1,5}"));
        assertThat(value("SELECT string_agg(name, ',') FROM t WHERE id > 100")).isNull();
        assertThat(value("SELECT array_agg(x ORDER BY x DESC NULLS LAST) FROM t WHERE grp = 'a'"))
                .isEqualTo("{3,2,NULL}");
        assertThat(value("SELECT array_agg(x ORDER BY x DESC) FROM t WHERE grp = 'a'")).isEqualTo("{NULL,3,2}");
        assertThat(value("SELECT listagg(grp, ';') WITHIN GROUP (ORDER BY grp) FROM t WHERE id < 4"))
                .isEqualTo("a;a;b");
    }
}
