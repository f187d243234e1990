package io.locusdb.bench.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.PreparedQuery;
import io.locusdb.core.Session;
import io.locusdb.core.result.QueryResult;
import io.locusdb.natives.topology.Topologies;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client mix's reference answers, computed from the generator alone, agree with the embedded engine on the
 * same scale factor — so a wrong answer seen by a client is the server's or the driver's fault, not the reference's.
 */
class LineitemReferenceTest {
    private static final double SF = 0.01;
    private static LocusDB db;
    private static LineitemReference reference;

    @BeforeAll
    static void setUp() {
        db = LocusDB.open(LocusConfig.of(Topologies.fake(2)).withExecutor(b -> b.pinWorkers(false)));
        try (Session s = db.connect()) {
            s.execute("LOAD TPCH SCALE " + SF + " PARTS 2");
        }
        reference = LineitemReference.compute(SF, 2);
    }

    @AfterAll
    static void tearDown() {
        db.close();
    }

    private static List<List<Object>> rows(String sql, Object... parameters) {
        try (Session s = db.connect()) {
            PreparedQuery q = s.prepare(sql);
            for (int i = 0; i < parameters.length; i++) {
                q.set(i + 1, parameters[i]);
            }
            try (QueryResult r = q.execute()) {
                return r.toList();
            }
        }
    }

    @Test
    void q6RevenueMatchesForEveryDrawableParameterSet() {
        String sql = new TpchMix.Q6(reference).sql();
        for (int y = 0; y < LineitemReference.YEARS; y++) {
            for (int d = 0; d < LineitemReference.DISCOUNTS; d++) {
                for (int q = 0; q < LineitemReference.QUANTITY_LIMITS.length; q++) {
                    int year = LineitemReference.FIRST_YEAR + y;
                    int center = LineitemReference.FIRST_DISCOUNT + d;
                    Object got = rows(sql, LocalDate.of(year, 1, 1), LocalDate.of(year + 1, 1, 1),
                            BigDecimal.valueOf(center - 1, 2), BigDecimal.valueOf(center + 1, 2),
                            LineitemReference.QUANTITY_LIMITS[q]).getFirst().getFirst();
                    assertThat((BigDecimal) got).isEqualByComparingTo(
                            BigDecimal.valueOf(reference.q6Revenue[y][d][q], 4));
                }
            }
        }
    }

    @Test
    void q1CountsAndSumsMatchForEveryCutoff() {
        for (int d = 0; d < LineitemReference.Q1_DELTAS.length; d++) {
            List<List<Object>> groups = rows("SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity),"
                    + " sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) FROM lineitem WHERE l_shipdate <= ?"
                    + " GROUP BY l_returnflag, l_linestatus",
                    LineitemReference.Q1_BASE.minusDays(LineitemReference.Q1_DELTAS[d]));
            long total = 0;
            for (List<Object> g : groups) {
                int f = LineitemReference.FLAGS.indexOf((String) g.get(0));
                int s = LineitemReference.STATUSES.indexOf((String) g.get(1));
                assertThat(((Number) g.get(2)).longValue()).isEqualTo(reference.q1Count[d][f][s]);
                assertThat((BigDecimal) g.get(3)).isEqualByComparingTo(BigDecimal.valueOf(reference.q1Quantity[d][f][s]));
                assertThat((BigDecimal) g.get(4)).isEqualByComparingTo(BigDecimal.valueOf(reference.q1Charge[d][f][s], 6));
                total += reference.q1Count[d][f][s];
            }
            assertThat(total).isPositive();
        }
    }

    @Test
    void quantityAndMonthlyBooksMatch() {
        List<List<Object>> perQuantity = rows("SELECT count(*) FROM lineitem WHERE l_quantity BETWEEN ? AND ?", 7, 8);
        assertThat(((Number) perQuantity.getFirst().getFirst()).longValue())
                .isEqualTo(reference.quantityRows[7] + reference.quantityRows[8]);
        LocalDate first = reference.monthStart(30);
        List<List<Object>> month = rows("SELECT l_returnflag, count(*) FROM lineitem WHERE l_shipdate BETWEEN ? AND ?"
                + " GROUP BY l_returnflag", first, first.plusMonths(1).minusDays(1));
        for (List<Object> g : month) {
            int f = LineitemReference.FLAGS.indexOf((String) g.get(0));
            assertThat(((Number) g.get(1)).longValue()).isEqualTo(reference.monthRows[30][f]);
        }
        assertThat(month).isNotEmpty();
    }
}
