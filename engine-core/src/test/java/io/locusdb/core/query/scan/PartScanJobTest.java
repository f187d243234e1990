package io.locusdb.core.query.scan;

import io.locusdb.core.query.planner.PredicateExtractor;
import io.locusdb.core.result.TaskRecord;
import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.exec.ExecutorConfig;
import io.locusdb.core.query.planner.ConstantFolder;
import io.locusdb.core.sql.SqlFrontEnd;
import org.apache.calcite.rel.RelNode;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.stealing.StealingPolicies;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.load.LoadProgress;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import io.trino.tpch.TpchTable;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The phase-1 scan on a fake two-node machine: right counts, and every part scanned on its own node. */
class PartScanJobTest {
    private static Catalog catalog;
    private static Table lineitem;
    private static NumaExecutor executor;
    private static int quantity;
    private static int discount;
    private static int shipdate;

    @BeforeAll
    static void load() {
        catalog = TestStorage.catalog();
        lineitem = catalog.register(new TpchLoader(catalog.memory(), 2).generate(TpchTable.LINE_ITEM, 0.01, 4,
                new InitialPlacement.RoundRobin(), LoadProgress.NONE));
        executor = NumaExecutor.start(ExecutorConfig.builder(catalog.memory().topology())
                .stealing(StealingPolicies.never()).build());
        quantity = lineitem.schema().indexOf("l_quantity");
        discount = lineitem.schema().indexOf("l_discount");
        shipdate = lineitem.schema().indexOf("l_shipdate");
    }

    @AfterAll
    static void close() {
        executor.close();
        catalog.drop(lineitem.name());
    }

    /** TPC-H Q6's predicate in physical values: dates as epoch days, DECIMAL(15,2) scaled by 100. */
    private static List<ValueRange> q6Predicate() {
        return List.of(
                new ValueRange(shipdate, LocalDate.of(1994, 1, 1).toEpochDay(), true,
                        LocalDate.of(1995, 1, 1).toEpochDay(), false),
                ValueRange.between(discount, 5L, 7L),
                ValueRange.lessThan(quantity, 2400L));
    }

    private static long bruteForce(TableSnapshot snapshot, List<? extends ScanPredicate> conjunction) {
        long n = 0;
        for (TablePart part : snapshot.parts()) {
            long total = part.rows() + snapshot.deltaRows(part);
            for (long r = 0; r < total; r++) {
                if (!snapshot.isVisible(part, r)) {
                    continue;
                }
                boolean all = true;
                for (ScanPredicate range : conjunction) {
                    Object v = r < part.rows() ? part.column(range.column()).boxedValue(r)
                            : part.delta().row((int) (r - part.rows()))[range.column()];
                    all &= range.matches(v);
                }
                if (all) {
                    n++;
                }
            }
        }
        return n;
    }

    @Test
    void the_q6_predicate_counts_what_a_row_by_row_check_counts_and_each_part_runs_on_its_node() {
        try (TableSnapshot snapshot = lineitem.snapshot()) {
            PartScanJob.Result result = PartScanJob.run(executor, QueryContext.create("q6"), snapshot,
                    q6Predicate(), true);

            assertThat(result.matches()).isEqualTo(bruteForce(snapshot, q6Predicate())).isPositive();
            assertThat(result.parts()).hasSize(4).allSatisfy(p -> {
                assertThat(p.ranOnNode()).as("part %d scanned on its node", p.part()).isEqualTo(p.homeNode());
                assertThat(p.stolen()).isFalse();
                assertThat(p.bytesTouched()).isPositive();
                assertThat(p.selection()).isNotNull();
            });
            assertThat(result.parts()).extracting(PartScanJob.PartResult::homeNode).containsOnly(0, 1);
            long selected = result.parts().stream().mapToLong(p -> {
                long bits = 0;
                for (long w : p.selection()) {
                    bits += Long.bitCount(w);
                }
                return bits + p.deltaMatches().length;
            }).sum();
            assertThat(selected).isEqualTo(result.matches());
        }
    }

    @Test
    void unions_of_ranges_select_every_row_in_any_of_them_alone_and_in_conjunctions() {
        try (TableSnapshot snapshot = lineitem.snapshot()) {
            // Disjoint, touching (merged into one ID range), overlapping and empty members.
            ValueRangeUnion quantities = new ValueRangeUnion(quantity, List.of(ValueRange.between(quantity, 100L, 500L),
                    ValueRange.between(quantity, 2000L, 2400L), ValueRange.between(quantity, 2401L, 2600L),
                    ValueRange.between(quantity, 2500L, 3000L), ValueRange.between(quantity, 9000L, 1000L)));
            ValueRangeUnion discounts = new ValueRangeUnion(discount, List.of(ValueRange.equalTo(discount, 2L),
                    ValueRange.equalTo(discount, 7L)));
            for (List<ScanPredicate> conjunction : List.<List<ScanPredicate>>of(
                    List.of(quantities),
                    List.of(discounts),
                    List.of(discounts, quantities),
                    List.of(ValueRange.lessThan(quantity, 2400L), discounts))) {
                for (boolean keepSelection : new boolean[] {false, true}) {
                    PartScanJob.Result result = PartScanJob.run(executor, QueryContext.create("q"), snapshot,
                            conjunction, keepSelection);
                    assertThat(result.matches()).as("%s", conjunction).isEqualTo(bruteForce(snapshot, conjunction))
                            .isPositive();
                }
            }
        }
    }

    @Test
    void single_predicates_use_the_counting_kernel_and_open_or_empty_ranges_behave() {
        try (TableSnapshot snapshot = lineitem.snapshot()) {
            for (List<ValueRange> conjunction : List.of(
                    List.of(ValueRange.lessThan(quantity, 2400L)),
                    List.of(ValueRange.atLeast(quantity, 5000L)),
                    List.of(ValueRange.equalTo(discount, 6L)),
                    List.of(ValueRange.between(quantity, 9000L, 1000L)),
                    List.<ValueRange>of())) {
                PartScanJob.Result result = PartScanJob.run(executor, QueryContext.create("q"), snapshot,
                        conjunction, false);
                assertThat(result.matches()).as("%s", conjunction).isEqualTo(bruteForce(snapshot, conjunction));
            }
            assertThat(PartScanJob.run(executor, QueryContext.create("all"), snapshot, List.of(), false).matches())
                    .isEqualTo(snapshot.visibleRows());
        }
    }

    @Test
    void fractional_bounds_on_integer_columns_round_the_right_way_for_main_and_delta_rows() {
        int linenumber = lineitem.schema().indexOf("l_linenumber");
        try (TableSnapshot snapshot = lineitem.snapshot()) {
            for (List<ValueRange> conjunction : List.of(
                    List.of(ValueRange.lessThan(linenumber, 2.5)),
                    List.of(new ValueRange(linenumber, 2.5, false, null, true)),
                    List.of(ValueRange.atLeast(linenumber, 2.5)),
                    List.of(ValueRange.between(linenumber, 1.5, 3.0)))) {
                long expected = bruteForce(snapshot, conjunction);
                assertThat(PartScanJob.run(executor, QueryContext.create("frac"), snapshot, conjunction, false)
                        .matches()).as("%s", conjunction).isEqualTo(expected);
            }
        }
    }

    @Test
    void selected_rows_materialize_on_their_parts_node_and_q6_revenue_matches_a_row_by_row_sum() {
        int price = lineitem.schema().indexOf("l_extendedprice");
        try (TableSnapshot snapshot = lineitem.snapshot()) {
            PartScanJob.Result scan = PartScanJob.run(executor, QueryContext.create("q6"), snapshot, q6Predicate(),
                    true);
            java.util.concurrent.atomic.LongAdder revenue = new java.util.concurrent.atomic.LongAdder();
            java.util.concurrent.atomic.LongAdder rows = new java.util.concurrent.atomic.LongAdder();
            java.util.concurrent.atomic.AtomicInteger misplaced = new java.util.concurrent.atomic.AtomicInteger();
            MaterializeJob.run(executor, QueryContext.create("q6"), snapshot, scan, new int[] {price, discount}, 1000,
                    part -> (ctx, batch) -> {
                        if (ctx.node() != snapshot.parts().get(part).homeNode()) {
                            misplaced.incrementAndGet();
                        }
                        long[] prices = batch.column(0).longs();
                        long[] discounts = batch.column(1).longs();
                        long sum = 0;
                        for (int r = 0; r < batch.rows(); r++) {
                            sum += prices[r] * discounts[r];
                        }
                        revenue.add(sum);
                        rows.add(batch.rows());
                    });

            long expected = 0;
            for (TablePart part : snapshot.parts()) {
                for (long r = 0; r < part.rows(); r++) {
                    boolean all = true;
                    for (ValueRange range : q6Predicate()) {
                        all &= range.matches(part.column(range.column()).boxedValue(r));
                    }
                    if (all) {
                        expected += (Long) part.column(price).boxedValue(r) * (Long) part.column(discount).boxedValue(r);
                    }
                }
            }
            assertThat(rows.sum()).isEqualTo(scan.matches());
            assertThat(revenue.sum()).as("sum(l_extendedprice * l_discount), scale 4").isEqualTo(expected)
                    .isPositive();
            assertThat(misplaced).hasValue(0);
        }
    }

    @Test
    void nulls_in_delta_rows_materialize_as_nulls_and_never_match_a_range() {
        Catalog own = TestStorage.catalog();
        io.locusdb.core.storage.table.Schema schema = io.locusdb.core.storage.table.Schema.of(
                io.locusdb.core.storage.table.ColumnDef.of("id", io.locusdb.core.storage.type.ColumnType.BIGINT),
                io.locusdb.core.storage.table.ColumnDef.of("name", io.locusdb.core.storage.type.ColumnType.VARCHAR),
                io.locusdb.core.storage.table.ColumnDef.of("score", io.locusdb.core.storage.type.ColumnType.DOUBLE));
        Table table = own.createTable("people", schema, io.locusdb.core.storage.table.PartitionSpec.none(),
                new InitialPlacement.RoundRobin(), null);
        try {
            table.insert(List.of(new Object[] {1L, "ada", 1.5}, new Object[] {2L, null, null},
                    new Object[] {3L, "bob", 7.0}));
            try (TableSnapshot snapshot = table.snapshot()) {
                PartScanJob.Result all = PartScanJob.run(executor, QueryContext.create("all"), snapshot, List.of(),
                        true);
                assertThat(all.matches()).isEqualTo(3);
                List<Object[]> seen = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
                MaterializeJob.run(executor, QueryContext.create("m"), snapshot, all, new int[] {0, 1, 2}, 2,
                        part -> (ctx, batch) -> {
                            for (int r = 0; r < batch.rows(); r++) {
                                seen.add(new Object[] {batch.column(0).boxed(r), batch.column(1).boxed(r),
                                        batch.column(2).boxed(r)});
                            }
                        });
                assertThat(seen).containsExactlyInAnyOrder(new Object[] {1L, "ada", 1.5},
                        new Object[] {2L, null, null}, new Object[] {3L, "bob", 7.0});
                assertThat(PartScanJob.run(executor, QueryContext.create("range"), snapshot,
                        List.of(ValueRange.atLeast(2, -1e9)), false).matches()).as("NULL never in a range")
                        .isEqualTo(2);
            }
        } finally {
            own.drop(table.name());
        }
    }

    @Test
    void the_sql_q6_filter_is_pushed_down_whole_and_counts_what_the_hand_written_ranges_count() {
        SqlFrontEnd sql = new SqlFrontEnd(catalog, ConstantFolder.INSTANCE);
        RelNode plan = sql.plan(
                "SELECT sum(l_extendedprice * l_discount) AS revenue FROM lineitem"
                + " WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1994-01-01' + INTERVAL '1' YEAR"
                + " AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND l_quantity < 24").plan();
        org.apache.calcite.rel.core.Filter filter = findFilter(plan);

        PredicateExtractor.Extracted extracted = PredicateExtractor.extract(filter.getCondition(), lineitem.schema(),
                filter.getCluster().getRexBuilder());

        assertThat(extracted.residual()).isNull();
        assertThat(extracted.ranges()).hasSize(3);
        try (TableSnapshot snapshot = lineitem.snapshot()) {
            assertThat(PartScanJob.run(executor, QueryContext.create("sql q6"), snapshot, extracted.ranges(), false)
                    .matches()).isEqualTo(bruteForce(snapshot, q6Predicate()));
        }
        org.apache.calcite.rel.RelNode other = sql.plan("SELECT l_orderkey FROM lineitem WHERE l_quantity > 10.5 "
                + "AND l_comment LIKE '%fox%' AND l_linenumber IN (1, 3)").plan();
        PredicateExtractor.Extracted partial = PredicateExtractor.extract(findFilter(other).getCondition(),
                lineitem.schema(), other.getCluster().getRexBuilder());
        assertThat(partial.ranges()).hasSize(2);
        assertThat(partial.ranges().getFirst()).as("> 10.5 on DECIMAL(15,2): scaled 1050, exclusive")
                .isEqualTo(new ValueRange(lineitem.schema().indexOf("l_quantity"), 1050L, false, null, true));
        int linenumber = lineitem.schema().indexOf("l_linenumber");
        assertThat(partial.ranges().get(1)).as("an IN list: a union the scan evaluates")
                .isEqualTo(new ValueRangeUnion(linenumber, List.of(ValueRange.equalTo(linenumber, 1L),
                        ValueRange.equalTo(linenumber, 3L))));
        assertThat(partial.residual()).isNotNull();
        assertThat(partial.residual().toString()).contains("LIKE").doesNotContain("SEARCH");
    }

    private static org.apache.calcite.rel.core.Filter findFilter(org.apache.calcite.rel.RelNode node) {
        if (node instanceof org.apache.calcite.rel.core.Filter f) {
            return f;
        }
        for (org.apache.calcite.rel.RelNode input : node.getInputs()) {
            org.apache.calcite.rel.core.Filter f = findFilter(input);
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    @Test
    void delta_rows_and_upserted_rows_are_seen_as_the_snapshot_sees_them() {
        Catalog own = TestStorage.catalog();
        Table table = own.register(new TpchLoader(own.memory(), 2).generate(TpchTable.LINE_ITEM, 0.001, 2,
                new InitialPlacement.RoundRobin(), LoadProgress.NONE));
        try {
            Object[] template;
            try (TableSnapshot before = table.snapshot()) {
                TablePart first = before.parts().getFirst();
                template = new Object[table.schema().size()];
                for (int c = 0; c < template.length; c++) {
                    template[c] = first.column(c).boxedValue(0);
                }
            }
            Object[] inserted = template.clone();
            inserted[table.schema().indexOf("l_orderkey")] = 99_999_999L;
            inserted[quantity] = 100L;
            table.insert(List.<Object[]>of(inserted));

            try (TableSnapshot snapshot = table.snapshot()) {
                List<ValueRange> small = List.of(ValueRange.lessThan(quantity, 200L));
                PartScanJob.Result result = PartScanJob.run(executor, QueryContext.create("delta"), snapshot, small,
                        true);
                assertThat(result.matches()).isEqualTo(bruteForce(snapshot, small));
                assertThat(result.parts().stream().mapToInt(p -> p.deltaMatches().length).sum()).isEqualTo(1);
            }
        } finally {
            own.drop(table.name());
        }
    }

    @Test
    void phaseOneSplitIntoRowChunksSelectsExactlyWhatOneTaskPerPartSelects() {
        try (TableSnapshot snapshot = lineitem.snapshot()) {
            List<ValueRange> q6 = q6Predicate();
            long expected = bruteForce(snapshot, q6);
            for (int chunks : new int[] {1, 2, 3, 7}) {
                java.util.concurrent.atomic.AtomicLong rows = new java.util.concurrent.atomic.AtomicLong();
                List<TaskRecord> tasks = new java.util.concurrent.CopyOnWriteArrayList<>();
                ScanPipeline.submit(executor, QueryContext.create("chunks " + chunks), snapshot, q6,
                        new MaterializeJob.Columns(new int[] {quantity}, true, 1000),
                        part -> (ctx, batch) -> rows.addAndGet(batch.rows()), tasks::add, part -> chunks).await();
                assertThat(rows.get()).as("%d chunk(s) per part", chunks).isEqualTo(expected);
                List<TaskRecord> scans = tasks.stream().filter(t -> t.taskClass().equals(PartScanJob.TASK_CLASS))
                        .toList();
                int parts = snapshot.parts().size();
                // Chunk bounds are rounded up to whole selection and packed words, so a small part may get fewer.
                assertThat(scans.size()).isBetween(chunks == 1 ? parts : parts + 1, chunks * parts);
                assertThat(scans).allSatisfy(t -> assertThat(t.ranOnNode()).isEqualTo(t.homeNode()));
            }
        }
    }
}
