package io.locusdb.core.storage.load;

import io.trino.tpch.CustomerGenerator;
import io.trino.tpch.Distributions;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.NationGenerator;
import io.trino.tpch.OrderGenerator;
import io.trino.tpch.PartGenerator;
import io.trino.tpch.PartSupplierGenerator;
import io.trino.tpch.RegionGenerator;
import io.trino.tpch.SupplierGenerator;
import io.trino.tpch.TextPool;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.util.function.Supplier;

/** The generator of a TPC-H table over a text pool of the caller's choosing ({@link TpchTextPool}). */
final class TpchGenerators {
    private TpchGenerators() {
    }

    @SuppressWarnings("unchecked")
    static <E extends TpchEntity> Iterable<E> create(TpchTable<E> table, double scaleFactor, int part, int partCount,
                                                     Supplier<TextPool> text) {
        Distributions d = Distributions.getDefaultDistributions();
        Iterable<? extends TpchEntity> generator = switch (table.getTableName()) {
            case "customer" -> new CustomerGenerator(scaleFactor, part, partCount, d, text);
            case "orders" -> new OrderGenerator(scaleFactor, part, partCount, d, text);
            case "lineitem" -> new LineItemGenerator(scaleFactor, part, partCount, d, text);
            case "part" -> new PartGenerator(scaleFactor, part, partCount, d, text);
            case "partsupp" -> new PartSupplierGenerator(scaleFactor, part, partCount, text);
            case "supplier" -> new SupplierGenerator(scaleFactor, part, partCount, d, text);
            case "nation" -> new NationGenerator(d, text);
            case "region" -> new RegionGenerator(d, text);
            default -> throw new IllegalArgumentException("not a TPC-H table: " + table.getTableName());
        };
        return (Iterable<E>) generator;
    }
}
