package io.locusdb.core.query;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.load.LoadProgress;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.table.InitialPlacement;
import io.trino.tpch.TpchTable;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class SmokeQueryTest {
    @Test
    void smoke() throws Exception {
        try (LocusDB db = LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withExecutor(b -> b.pinWorkers(false)));
             Session s = db.connect()) {
            db.catalog().register(new TpchLoader(db.memory(), 2).generate(TpchTable.LINE_ITEM, 0.01, 2,
                    new InitialPlacement.RoundRobin(), LoadProgress.NONE));
            String[] queries = {
                "select count(*) from lineitem",
                "select sum(l_extendedprice * l_discount) as revenue from lineitem where l_shipdate >= date '1994-01-01'"
                    + " and l_shipdate < date '1994-01-01' + interval '1' year and l_discount between 0.06 - 0.01 and"
                    + " 0.06 + 0.01 and l_quantity < 24",
                "select l_returnflag, l_linestatus, sum(l_quantity) as sum_qty, sum(l_extendedprice) as sum_base_price,"
                    + " sum(l_extendedprice * (1 - l_discount)) as sum_disc_price,"
                    + " sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge, avg(l_quantity) as avg_qty,"
                    + " avg(l_extendedprice) as avg_price, avg(l_discount) as avg_disc, count(*) as count_order"
                    + " from lineitem where l_shipdate <= date '1998-12-01' - interval '90' day"
                    + " group by l_returnflag, l_linestatus order by l_returnflag, l_linestatus",
                "select l_orderkey, l_shipmode from lineitem where l_quantity between 1 and 2 order by l_orderkey, l_shipmode limit 5",
                "explain select l_shipmode, sum(cast(l_extendedprice as double)) from lineitem where l_extendedprice between 1000 and 2000 group by l_shipmode",
                "select l_shipmode, count(distinct l_suppkey), min(l_comment), max(l_shipdate) from lineitem group by l_shipmode having count(*) > 10 order by 1",
            };
            try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
                for (String q : queries) {
                    System.out.println("== " + q);
                    try (QueryResult r = s.execute(q)) {
                        for (var row : r.toList()) {
                            System.out.println(row);
                        }
                        System.out.println("tasks " + r.tasks());
                    }
                }
            }
        }
    }
}
