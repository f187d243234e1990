package io.locusdb.core.storage.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.trino.tpch.LineItem;
import io.trino.tpch.TpchTable;
import java.util.List;
import org.junit.jupiter.api.Test;

class TpchLoaderTest {
    @Test
    void aTextPoolOfTheLoadersOwnOfTheStandardSizeGivesTheStandardRows() {
        Catalog shared = TestStorage.catalog();
        Catalog own = TestStorage.catalog();
        new TpchLoader(shared.memory(), 1).loadAll(shared, 0.001, 1, new InitialPlacement.RoundRobin(),
                LoadProgress.NONE);
        new TpchLoader(own.memory(), 1, TpchTextPool.own(TpchTextPool.STANDARD_BYTES)).loadAll(own, 0.001, 1,
                new InitialPlacement.RoundRobin(), LoadProgress.NONE);
        for (Table table : shared.tables()) {
            TablePart a = table.version().parts().getFirst();
            TablePart b = own.table(table.name()).version().parts().getFirst();
            assertThat(b.rows()).isEqualTo(a.rows());
            for (int c = 0; c < a.columns().size(); c++) {
                for (long row = 0; row < a.rows(); row += 7) {
                    assertThat(b.column(c).boxedValue(row)).as("%s column %d row %d", table.name(), c, row)
                            .isEqualTo(a.column(c).boxedValue(row));
                }
            }
        }
    }

    @Test
    void aSmallTextPoolGivesCommentsOfTheStandardWords() {
        Catalog catalog = TestStorage.catalog();
        new TpchLoader(catalog.memory(), 1, TpchTextPool.own(1 << 16)).loadAll(catalog, 0.001, 1,
                new InitialPlacement.RoundRobin(), LoadProgress.NONE);
        TablePart orders = catalog.table("orders").version().parts().getFirst();
        int comment = catalog.table("orders").schema().indexOf("o_comment");
        assertThat(orders.rows()).isEqualTo(1500);
        assertThat((String) orders.column(comment).boxedValue(0)).isNotBlank().matches("[a-z ,.;:!?'-]+");
    }

    @Test
    void loadsAllEightTablesCoPartitionedAndPlacedRoundRobin() {
        Catalog catalog = TestStorage.catalog();
        List<Table> tables = new TpchLoader(catalog.memory(), 2).loadAll(catalog, 0.01, 2,
                new InitialPlacement.RoundRobin(), LoadProgress.NONE);
        assertThat(tables).extracting(Table::name).containsExactlyInAnyOrder("customer", "orders", "lineitem",
                "part", "partsupp", "supplier", "nation", "region");
        assertThat(catalog.table("nation").version().rows()).isEqualTo(25);
        assertThat(catalog.table("orders").version().rows()).isEqualTo(15_000);
        Table lineitem = catalog.table("lineitem");
        long expectedRows = 0;
        for (LineItem ignored : TpchTable.LINE_ITEM.createGenerator(0.01, 1, 1)) {
            expectedRows++;
        }
        assertThat(lineitem.version().rows()).isEqualTo(expectedRows);
        assertThat(lineitem.version().parts()).extracting(TablePart::homeNode).containsExactly(0, 1);
        assertThat(catalog.group("tpch_orders").tables()).extracting(Table::name)
                .containsExactlyInAnyOrder("orders", "lineitem");
        // Co-partitioned: both tables' part 1 starts at the same order key.
        assertThat(lineitem.version().rangeBounds()).isEqualTo(catalog.table("orders").version().rangeBounds());
        // Every key of part 0 is below the bound, every key of part 1 at or above it.
        long bound = lineitem.version().rangeBounds().getFirst();
        TablePart p0 = lineitem.version().parts().get(0);
        TablePart p1 = lineitem.version().parts().get(1);
        assertThat((Long) p0.column(0).boxedValue(p0.rows() - 1)).isLessThan(bound);
        assertThat((Long) p1.column(0).boxedValue(0)).isGreaterThanOrEqualTo(bound);
        // l_extendedprice is exact cents: DECIMAL(15,2).
        assertThat(lineitem.schema().column(5).type().toString()).isEqualTo("DECIMAL(15,2)");
    }
}
