package io.locusdb.bench.seed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SeedQueryTest {

    @Test
    void the_three_query_types_are_the_papers_statements() {
        assertThat(SeedQuery.sql('a', "TBL1", "TBL2", 3)).isEqualTo("SELECT COL3 FROM TBL1 WHERE COL3 BETWEEN ? AND ?");
        assertThat(SeedQuery.sql('b', "TBL1", "TBL2", 5))
                .isEqualTo("SELECT COL1, SUM(CAST(COL5 AS DOUBLE)) FROM TBL1 WHERE COL5 BETWEEN ? AND ? GROUP BY COL1");
        assertThat(SeedQuery.sql('c', "TBL1", "TBL2", 8))
                .isEqualTo("SELECT z.COL8 FROM TBL1 y, TBL2 z WHERE y.ID = z.ID AND y.COL8 BETWEEN ? AND ?");
        assertThatThrownBy(() -> SeedQuery.sql('d', "T", "T", 1)).hasMessageContaining("'d'");
    }

    @Test
    void columns_have_bitcases_17_to_24() {
        assertThat(SeedTables.bits(1)).isEqualTo(17);
        assertThat(SeedTables.bits(8)).isEqualTo(24);
        assertThatThrownBy(() -> SeedTables.bits(9)).hasMessageContaining("COL9");
    }

    @Test
    void an_aggregation_never_filters_its_group_column() {
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 1000; i++) {
            assertThat(SeedQuery.column('b', random)).isBetween(2, 8);
            assertThat(SeedQuery.column('a', random)).isBetween(1, 8);
        }
    }

    @Test
    void a_range_covers_the_selectivity_of_the_columns_domain_and_stays_inside_it() {
        SplittableRandom random = new SplittableRandom(2);
        for (int i = 0; i < 1000; i++) {
            long[] r = SeedQuery.range(1, 0.001, random);
            assertThat(r[1] - r[0] + 1).isEqualTo(131);
            assertThat(r[0]).isNotNegative();
            assertThat(r[1]).isLessThan(1L << 17);
        }
        assertThat(SeedQuery.range(8, 1.0, random)).containsExactly(0, (1L << 24) - 1);
        long[] one = SeedQuery.range(1, 1e-9, random);
        assertThat(one[1]).as("a tiny selectivity still matches one value").isEqualTo(one[0]);
    }
}
