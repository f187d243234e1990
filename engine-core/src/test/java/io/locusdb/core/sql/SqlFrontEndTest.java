package io.locusdb.core.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.query.planner.ConstantFolder;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.load.LoadProgress;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.InitialPlacement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SqlFrontEndTest {
    private static final String Q6 = """
            SELECT sum(l_extendedprice * l_discount) AS revenue
            FROM lineitem
            WHERE l_shipdate >= DATE '1994-01-01'
              AND l_shipdate < DATE '1994-01-01' + INTERVAL '1' YEAR
              AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01
              AND l_quantity < 24""";

    private static Catalog catalog;
    private static SqlFrontEnd sql;

    @BeforeAll
    static void load() {
        catalog = TestStorage.catalog();
        new TpchLoader(catalog.memory(), 2).loadAll(catalog, 0.001, 2, new InitialPlacement.RoundRobin(),
                LoadProgress.NONE);
        sql = new SqlFrontEnd(catalog, ConstantFolder.INSTANCE);
    }

    @AfterAll
    static void drop() {
        catalog.tables().forEach(t -> catalog.drop(t.name()));
    }

    @Test
    void tpch_q6_becomes_an_aggregate_over_a_filtered_scan_with_the_date_arithmetic_folded() {
        SqlFrontEnd.LogicalQuery q = sql.plan(Q6);

        assertThat(q.columnNames()).containsExactly("revenue");
        String plan = q.planText();
        assertThat(plan).contains("LogicalAggregate").contains("LogicalFilter").contains("TableScan")
                .contains("lineitem");
        assertThat(plan).as("DATE + INTERVAL folded to a literal").contains("1995-01-01").doesNotContain("INTERVAL");
        assertThat(q.explain()).isFalse();
    }

    @Test
    void names_are_case_insensitive_and_explain_is_recognised() {
        SqlFrontEnd.LogicalQuery q = sql.plan("EXPLAIN PLAN FOR select L_ORDERKEY, l_Quantity from LINEITEM "
                + "where L_QUANTITY > 10 order by 1 limit 5");

        assertThat(q.explain()).isTrue();
        assertThat(q.columnNames()).as("result columns keep the spelling of the query")
                .containsExactly("L_ORDERKEY", "l_Quantity");
        assertThat(q.planText()).contains("LogicalSort").contains("fetch=[5]");
    }

    @Test
    void a_syntax_error_names_the_position() {
        assertThatThrownBy(() -> sql.plan("SELECT l_orderkey\nFROM lineitem\nWHERE"))
                .isInstanceOfSatisfying(LocusSqlException.class, e -> {
                    assertThat(e.sqlState()).isEqualTo("42601");
                    assertThat(e.line()).isEqualTo(3);
                    assertThat(e.hasPosition()).isTrue();
                });
    }

    @Test
    void unknown_tables_and_columns_are_named_with_their_position() {
        assertThatThrownBy(() -> sql.plan("SELECT * FROM nosuch"))
                .isInstanceOfSatisfying(LocusSqlException.class, e -> {
                    assertThat(e.sqlState()).isEqualTo("42P01");
                    assertThat(e.getMessage()).contains("nosuch");
                    assertThat(e.line()).isEqualTo(1);
                    assertThat(e.column()).isEqualTo(15);
                });
        assertThatThrownBy(() -> sql.plan("SELECT l_nosuch FROM lineitem"))
                .isInstanceOfSatisfying(LocusSqlException.class, e -> {
                    assertThat(e.sqlState()).isEqualTo("42703");
                    assertThat(e.getMessage()).contains("l_nosuch");
                    assertThat(e.column()).isEqualTo(8);
                });
    }

    @Test
    void unsupported_sql_says_precisely_what_is_unsupported() {
        assertThat(sql.plan("SELECT l_orderkey, o_orderdate FROM lineitem JOIN orders ON l_orderkey = o_orderkey")
                .planText()).contains("Join");
        assertThat(sql.plan("SELECT x FROM (SELECT l_orderkey AS x FROM lineitem) t").planText())
                .contains("TableScan");
        assertThat(sql.plan("SELECT l_orderkey FROM lineitem UNION SELECT o_orderkey FROM orders").planText())
                .contains("Union(all=[true])");
        // INTERSECT ALL is the distinct INTERSECT (a union and an aggregation) over rows numbered by a window.
        assertThat(sql.plan("SELECT l_orderkey FROM lineitem INTERSECT ALL SELECT o_orderkey FROM orders").planText())
                .contains("Window").doesNotContain("Intersect");
        assertThat(sql.plan("SELECT rank() OVER (ORDER BY l_quantity) FROM lineitem").planText())
                .contains("Window");
        assertThatThrownBy(() -> sql.plan("DELETE FROM lineitem"))
                .isInstanceOfSatisfying(LocusSqlException.class, e -> {
                    assertThat(e.sqlState()).isEqualTo("0A000");
                    assertThat(e.getMessage()).contains("DELETE");
                });
        assertThatThrownBy(() -> sql.plan("  ")).isInstanceOfSatisfying(LocusSqlException.class,
                e -> assertThat(e.sqlState()).isEqualTo("42601"));
        // Subqueries in expressions are decorrelated into joins: none is left in the plan.
        for (String subquery : java.util.List.of(
                "SELECT l_orderkey FROM lineitem WHERE l_orderkey IN (SELECT o_orderkey FROM orders)",
                "SELECT l_orderkey FROM lineitem WHERE EXISTS (SELECT 1 FROM orders WHERE o_orderkey = l_orderkey)",
                "SELECT (SELECT max(o_totalprice) FROM orders) FROM lineitem")) {
            assertThat(sql.plan(subquery).planText()).as(subquery).contains("Join").doesNotContain("$SCALAR_QUERY")
                    .doesNotContain("Correlate");
        }
    }

    @Test
    void long_in_lists_stay_single_table_and_grouping_errors_get_their_own_code() {
        StringBuilder in = new StringBuilder();
        for (int i = 1; i <= 40; i++) {
            in.append(i == 1 ? "" : ", ").append(i);
        }
        assertThat(sql.plan("SELECT count(*) FROM lineitem WHERE l_linenumber IN (" + in + ")").planText())
                .doesNotContain("Join").contains("SEARCH");
        assertThatThrownBy(() -> sql.plan("SELECT p_type, p_size FROM part GROUP BY p_type"))
                .isInstanceOfSatisfying(LocusSqlException.class, e -> assertThat(e.sqlState()).isEqualTo("42803"));
    }
}
