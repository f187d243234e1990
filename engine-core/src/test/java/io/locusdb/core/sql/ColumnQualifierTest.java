package io.locusdb.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.junit.jupiter.api.Test;

/**
 * Unqualified column names in a SELECT over many tables are qualified with the one table that has them, and only
 * where that cannot change what they mean.
 */
class ColumnQualifierTest {
    /** Tables t1..t12, each with columns a{i}, b{i}; t1 and t2 also share a column named "shared". */
    private static final Map<String, List<String>> TABLES = IntStream.rangeClosed(1, 12).boxed().collect(
            Collectors.toMap(i -> "t" + i, i -> i <= 2 ? List.of("a" + i, "b" + i, "shared") : List.of("a" + i,
                    "b" + i)));

    private static final String FROM = IntStream.rangeClosed(1, 10).mapToObj(i -> "t" + i)
            .collect(Collectors.joining(", "));

    private static String qualified(String sql) throws SqlParseException {
        SqlNode node = SqlParser.create(sql, SqlParser.config().withParserFactory(SqlBabelParserImpl.FACTORY)
                .withUnquotedCasing(Casing.UNCHANGED).withQuotedCasing(Casing.UNCHANGED)).parseQuery();
        ColumnQualifier.qualify(node, name -> TABLES.get(name.toLowerCase(Locale.ROOT)));
        return node.toString().replace("`", "").replace("\n", " ");
    }

    @Test
    void namesOneTableHasAreQualifiedWithItInTheSelectListWhereAndOnConditions() throws SqlParseException {
        assertThat(qualified("SELECT a3, b7 + 1 AS x FROM " + FROM + " WHERE a1 = b2 AND a9 = 5"))
                .contains("SELECT t3.a3, t7.b7 + 1 AS x").contains("WHERE t1.a1 = t2.b2 AND t9.a9 = 5");
        assertThat(qualified("SELECT a3 FROM t1 JOIN t2 ON a1 = b2 JOIN t3 ON a3 = a2, t4, t5, t6, t7, t8, t9"))
                .contains("ON t1.a1 = t2.b2").contains("ON t3.a3 = t2.a2");
        // Aliases name the tables as the query does.
        assertThat(qualified("SELECT a3 FROM " + FROM.replace("t3", "t3 AS z")))
                .contains("SELECT z.a3");
    }

    @Test
    void namesThatAreAmbiguousUnknownOrAnItemsAliasAreLeftToTheValidator() throws SqlParseException {
        String sql = qualified("SELECT shared, nothing, a4 AS a5, a5 FROM " + FROM + " WHERE a5 = 1 AND a6 = 2"
                + " AND a7 IN (SELECT a8 FROM t11) GROUP BY a3 ORDER BY a4");
        assertThat(sql).contains("SELECT shared, nothing, t4.a4 AS a5, a5").contains("WHERE a5 = 1 AND t6.a6 = 2")
                // A nested query has its own scope (t11 has no a8: it stays an outer reference).
                .contains("t7.a7 IN (SELECT a8 FROM t11)")
                // GROUP BY and ORDER BY may name select items: left alone.
                .contains("GROUP BY a3").contains("ORDER BY a4");
    }

    @Test
    void statementsWhoseFromListIsNotPlainTablesAreLeftAsTheyAre() throws SqlParseException {
        assertThat(qualified("SELECT a3 FROM t1, t2, t3")).contains("SELECT a3 FROM");
        assertThat(qualified("SELECT a3 FROM " + FROM + ", (SELECT 1 AS one) AS s")).contains("SELECT a3 FROM");
        assertThat(qualified("SELECT a3 FROM " + FROM + ", unknown")).contains("SELECT a3 FROM");
        assertThat(qualified("SELECT a3 FROM " + FROM.replace("t2,", "t2 JOIN t11 USING (a2),")))
                .contains("SELECT a3 FROM");
        assertThat(qualified("WITH t3 AS (SELECT 1 AS q) SELECT a4 FROM " + FROM)).contains("SELECT a4 FROM");
        assertThat(qualified("SELECT a3 FROM " + FROM + ", t1")).contains("SELECT a3 FROM");
    }
}
