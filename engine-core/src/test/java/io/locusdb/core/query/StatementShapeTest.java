package io.locusdb.core.query;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatementShapeTest {
    @Test
    void theSameQueryWithOtherConstantsHasTheSameShape() {
        String a = StatementShape.of("SELECT sum(l_extendedprice * l_discount) FROM lineitem\n"
                + "WHERE l_shipdate >= DATE '1994-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24");
        String b = StatementShape.of("select sum(l_extendedprice * l_discount)  from lineitem -- Q6\n"
                + "where l_shipdate >= date '1997-01-01' and l_discount between .02 and 4e-2 and l_quantity < 25");

        assertThat(a).isEqualTo(b);
    }

    @Test
    void namesWithDigitsParameterMarkersAndQuotedNamesStay() {
        assertThat(StatementShape.of("SELECT c2, \"Col 7\" FROM t1 WHERE c2 = $1 AND c3 = ?"))
                .isEqualTo("select c2, \"Col 7\" from t1 where c2 = $1 and c3 = ?");
    }

    @Test
    void differentQueriesHaveDifferentShapes() {
        assertThat(StatementShape.of("SELECT a FROM t WHERE b = 1"))
                .isNotEqualTo(StatementShape.of("SELECT a FROM u WHERE b = 1"))
                .isNotEqualTo(StatementShape.of("SELECT a FROM t WHERE c = 1"));
    }

    @Test
    void quotesInsideStringsAndCommentsDoNotEndThemEarly() {
        assertThat(StatementShape.of("SELECT 'it''s -- not a comment' /* 'x' 5 */ FROM t"))
                .isEqualTo("select ? from t");
    }
}
