package io.locusdb.bench.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SimulatorTest {
    private static final MachineModel FOUR = MachineModel.fourSockets();

    private static Scenario scenario(String stealing, double selectivity, String placer) {
        return ScenarioParser.parse("""
                name test
                machine 4x15
                seconds 20
                rows 20000000
                table T1 node 1
                clients 64 a T1 selectivity %s
                placer %s
                stealing %s
                """.formatted(selectivity, placer, stealing), "test", 0);
    }

    private static SimResult run(Scenario s, long seed) {
        return new Simulator(FOUR, s, Simulator.Settings.defaults(seed)).run("test");
    }

    @Test
    void the_same_seed_gives_the_same_run() {
        Scenario s = scenario("adaptive", 0.01, "off");
        SimResult a = run(s, 7);
        SimResult b = run(s, 7);
        assertThat(a.completions()).isDeepEqualTo(b.completions());
        assertThat(a.memoryGBs()).isDeepEqualTo(b.memoryGBs());
    }

    @Test
    void memory_bound_scans_without_stealing_saturate_their_node_and_leave_the_others_idle() {
        SimResult r = run(scenario("never", 0.00001, "off"), 1);
        for (int s = 5; s < 20; s++) {
            assertThat(r.memoryGBs()[s][1]).isCloseTo(70, within(70 * 0.05));
            assertThat(r.busyThreads()[s][0]).isZero();
            assertThat(r.busyThreads()[s][1]).isCloseTo(15, within(0.5));
        }
        assertThat(r.stolenShare()).isZero();
    }

    @Test
    void stolen_scans_go_no_faster_than_the_nodes_memory_lets_them() {
        double never = run(scenario("never", 0.00001, "off"), 1).throughput(5, 20);
        double always = run(scenario("always", 0.00001, "off"), 1).throughput(5, 20);
        // Thieves add link-limited readers of the same saturated controller: no real gain.
        assertThat(always / never).isBetween(0.85, 1.15);
    }

    @Test
    void stealing_cpu_bound_materialization_uses_the_idle_nodes() {
        SimResult never = run(scenario("never", 0.1, "off"), 1);
        SimResult always = run(scenario("always", 0.1, "off"), 1);
        assertThat(always.throughput(5, 20) / never.throughput(5, 20)).isGreaterThan(1.3);
        assertThat(always.busyThreads()[10][0]).isGreaterThan(10);
    }

    @Test
    void the_scans_byte_factor_is_what_the_stealing_policy_learns_from() {
        // LocusDB accounts whole words of codes; a CPU-heavy scan that reads too few bytes looks CPU-bound and is
        // stolen, the same scan with the engine's byte account is not.
        TaskCosts cpuHeavy = scanCosts(12, 1);
        TaskCosts accounted = scanCosts(12, 16);
        Scenario s = scenario("adaptive", 0.00001, "off");
        SimResult packed = new Simulator(FOUR, s, Simulator.Settings.defaults(1).withCosts(cpuHeavy)).run("test");
        SimResult words = new Simulator(FOUR, s, Simulator.Settings.defaults(1).withCosts(accounted)).run("test");
        assertThat(packed.classThroughput().get("iv-scan")).isLessThan(FOUR.stealingThreshold());
        assertThat(words.classThroughput().get("iv-scan")).isGreaterThan(FOUR.stealingThreshold());
        // What is stolen with the engine's account are the CPU-bound materializations only.
        assertThat(packed.stolenShare()).isGreaterThan(words.stolenShare() + 0.2);
    }

    private static TaskCosts scanCosts(double nanosPerRow, double byteFactor) {
        TaskCosts d = TaskCosts.defaults();
        return new TaskCosts(nanosPerRow, byteFactor, d.materializeNanosPerRow(), d.materializeBytesPerRow(),
                d.aggregateNanosPerRow(), d.aggregateBytesPerRow(), d.mergeNanosPerGroup(), d.mergeBytesPerGroup(),
                d.probeNanosPerRow(), d.probeBytesPerRow(), d.taskRows(), 0);
    }

    @Test
    void adaptive_stealing_learns_which_class_is_memory_intensive() {
        SimResult r = run(scenario("adaptive", 0.1, "off"), 1);
        assertThat(r.classThroughput().get("iv-scan")).isGreaterThan(FOUR.stealingThreshold());
        // Stolen tasks do not teach their class (as in the executor): materialization may never run at home here.
        assertThat(r.classThroughput().getOrDefault("materialize", 0.0)).isLessThan(FOUR.stealingThreshold());
        assertThat(r.stolenShare()).isGreaterThan(0.1);
    }

    @Test
    void the_placer_spreads_a_hot_table_and_throughput_follows() {
        Scenario s = ScenarioParser.parse("""
                name spread
                machine 4x15
                seconds 120
                rows 20000000
                table T1 node 0
                table T2 node 0
                clients 64 a T1,T2 selectivity 0.00001
                placer on
                stealing adaptive
                """, "spread", 0);
        SimResult r = run(s, 3);
        assertThat(r.events()).isNotEmpty();
        assertThat(r.events().getFirst().action()).isIn("move", "partition");
        assertThat(r.throughput(100, 120) / r.throughput(2, 6)).isGreaterThan(1.5);
    }

    private static Scenario fourInstances(String cores, String stealing, int clients) {
        return ScenarioParser.parse("""
                name instances
                machine 4x15
                seconds 10
                rows 10000000
                tables TBL1-4 round-robin
                clients %d a TBL1-4 selectivity 0.001
                placer off
                stealing %s
                cores %s
                """.formatted(clients, stealing, cores), "instances", 0);
    }

    @Test
    void the_numa_effects_layouts_read_local_remote_or_spread_memory() {
        Scenario s = fourInstances("all", "never", 8);
        assertThat(run(s.withLayout("aligned", 4), 1).remoteShare()).isZero();
        assertThat(run(s.withLayout("1-ahead", 4), 1).remoteShare()).isEqualTo(1.0);
        assertThat(run(s.withLayout("interleave", 4), 1).remoteShare()).isCloseTo(0.75, within(0.05));
        double aligned = run(s.withLayout("aligned", 4), 1).throughput(2, 10);
        double ahead = run(s.withLayout("1-ahead", 4), 1).throughput(2, 10);
        assertThat(aligned).isGreaterThan(ahead * 1.5);
    }

    @Test
    void the_elastic_allocation_holds_only_the_cores_the_load_needs_near_the_data() {
        Scenario s = ScenarioParser.parse("""
                name elastic
                machine 4x15
                seconds 10
                rows 10000000
                tables TBL1-2 node 0 threads-on any
                clients %d a TBL1-2 selectivity 0.1
                placer off
                stealing always
                cores %s
                """.formatted(1, "adaptive"), "elastic", 0);
        SimResult light = run(s, 1);
        SimResult all = run(s.withCores("all"), 1);
        assertThat(all.allocatedCores()[5]).isCloseTo(60, within(1e-6));
        assertThat(light.allocatedCores()[5]).isLessThan(30);
        // The operating system spreads tasks over every allowed core; allowing only cores near the data keeps
        // them local.
        assertThat(light.remoteShare()).isLessThan(all.remoteShare() / 2);
        for (double cores : light.allocatedCores()) {
            assertThat(cores).isBetween(1.0 - 1e-6, 60.0 + 1e-6);
        }
    }
    @Test
    void a_table_groups_parts_are_placed_together_and_a_mix_runs_its_templates() {
        Scenario s = ScenarioParser.parse("""
                name group
                machine 4x15
                seconds 60
                rows 1000000
                table fact node 0 rows 40000000 row-bytes 8
                table dim node 0 rows 10000000 row-bytes 8
                table lonely node 3 rows 100000
                group fg fact,dim
                template join scan fact 20 then probe dim 1 then aggregate fact 0.01 then merge fact 10
                template look weight 0.1 scan lonely 8
                clients 128 mix join,look
                placer on
                stealing adaptive
                """, "test", 0);
        SimResult r = run(s, 1);
        assertThat(r.events()).isNotEmpty().allSatisfy(e -> assertThat(e.owner()).isEqualTo("group fg"));
        assertThat(r.finalLayout().get("fact")).isEqualTo(r.finalLayout().get("dim"));
        assertThat(r.finalLayout().get("fact").stream().distinct().count()).isGreaterThan(1);
        assertThat(r.finalLayout().get("lonely")).containsExactly(3);
        assertThat(r.throughput(50, 60)).isGreaterThan(1.5 * r.throughput(2, 6));
    }

    @Test
    void a_tables_own_rows_and_row_bytes_set_how_long_moving_it_takes() {
        Scenario s = ScenarioParser.parse("""
                name sizes
                machine 4x15
                seconds 40
                table T1 node 0 rows 20000000 row-bytes 40
                table T2 node 0 rows 20000000 row-bytes 40
                clients 64 a T1,T2 selectivity 0.00001
                placer on
                stealing adaptive
                """, "test", 0);
        SimResult r = run(s, 1);
        SimEvent move = r.events().stream().filter(e -> e.action().equals("move")).findFirst().orElseThrow();
        // 20 M rows of 40 bytes are 195,313 pages, at the 4x15 machine's 59 µs per page.
        assertThat(move.doneSeconds() - move.startSeconds()).isCloseTo(195_313 * 59e-6, within(0.01));
    }

    private static Scenario aggregations(String layout, String extra) {
        return ScenarioParser.parse("""
                name aggregations
                machine 4x15
                seconds 20
                rows 20000000
                table T1 %s
                clients 16 b T1 selectivity 0.1
                placer off
                stealing never
                %s
                """.formatted(layout, extra), "test", 0);
    }

    @Test
    void a_partitioned_aggregation_reads_other_nodes_in_its_merge_and_global_dictionary_and_costs_more() {
        SimResult whole = run(aggregations("node 0", ""), 1);
        SimResult split = run(aggregations("nodes 0,1,2,3", ""), 1);
        // Without stealing every task runs on its own queue's node: what is remote is what the aggregation itself
        // reads elsewhere (the local tables of the other parts, the global dictionary on the first part's node).
        assertThat(whole.remoteShare()).isZero();
        assertThat(split.remoteShare()).isGreaterThan(0.05);
        // The same work spread over four nodes still does not come for free: per query, the partitioned table
        // spends more thread time than the unpartitioned one.
        double wholeWork = busyThreadSeconds(whole) / (whole.throughput(5, 20) * 15);
        double splitWork = busyThreadSeconds(split) / (split.throughput(5, 20) * 15);
        assertThat(splitWork / wholeWork).isGreaterThan(1.1);
    }

    @Test
    void a_scenarios_own_step_costs_replace_the_defaults() {
        double cheap = run(aggregations("node 0", ""), 1).throughput(5, 20);
        double dear = run(aggregations("node 0", "cost aggregate 250 10"), 1).throughput(5, 20);
        // Aggregation dominates query (b) at 10 %: ten times its CPU per row costs most of the throughput.
        assertThat(dear / cheap).isLessThan(0.3);
    }

    private static double busyThreadSeconds(SimResult r) {
        double sum = 0;
        for (int second = 5; second < 20; second++) {
            for (double threads : r.busyThreads()[second]) {
                sum += threads;
            }
        }
        return sum;
    }

    @Test
    void distinct_values_of_uniform_draws_approach_the_domain() {
        assertThat(Simulator.distinct(131_072, 1)).isCloseTo(1, within(1e-3));
        assertThat(Simulator.distinct(131_072, 131_072)).isCloseTo(131_072 * (1 - Math.exp(-1)), within(1.0));
        assertThat(Simulator.distinct(131_072, 5_000_000)).isCloseTo(131_072, within(1.0));
    }
}
