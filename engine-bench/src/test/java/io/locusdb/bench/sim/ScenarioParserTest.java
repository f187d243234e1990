package io.locusdb.bench.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioParserTest {

    @Test
    void every_bundled_scenario_parses() throws IOException {
        for (String name : ScenarioParser.bundled()) {
            Scenario s = ScenarioParser.load(name, 0);
            assertThat(s.name()).isEqualTo(name);
            assertThat(s.tables()).isNotEmpty();
            assertThat(s.clients()).isNotEmpty();
        }
    }

    @Test
    void figure_10_places_two_hot_tables_on_the_first_socket_and_a_cold_partitioned_one_on_the_last_two()
            throws IOException {
        Scenario s = ScenarioParser.load("fig10", 0);
        assertThat(s.tables()).extracting(Scenario.TableSpec::nodes)
                .containsExactly(List.of(0), List.of(0), List.of(1), List.of(2, 3));
        assertThat(s.tables().get(3).placerPartitioned()).isTrue();
        assertThat(s.clients().getFirst().tables()).containsExactly("TBL1", "TBL2", "TBL3");
        assertThat(s.clients().getFirst().count()).isEqualTo(64);
        assertThat(s.placerFrom()).isZero();
    }

    @Test
    void table_layouts_spread_over_the_machine_it_runs_on() {
        String text = """
                name layouts
                machine 8x15
                tables TBL1-16 blocks 8
                tables A1-3 across all
                tables R1-3 round-robin
                clients 1 a TBL1 selectivity 0.5
                """;
        Scenario eight = ScenarioParser.parse(text, "t", 0);
        assertThat(eight.tables().get(7).nodes()).containsExactly(0);
        assertThat(eight.tables().get(8).nodes()).containsExactly(1);
        assertThat(eight.tables().get(16).nodes()).hasSize(8);
        assertThat(eight.tables().get(21).nodes()).containsExactly(2);
        Scenario four = ScenarioParser.parse(text, "t", 4);
        assertThat(four.tables().get(16).nodes()).containsExactly(0, 1, 2, 3);
    }

    @Test
    void ranges_expand_to_table_names() {
        assertThat(ScenarioParser.range("TBL3-5,X")).containsExactly("TBL3", "TBL4", "TBL5", "X");
    }

    @Test
    void errors_name_the_line_and_the_problem() {
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0\nclients 1 a T selectivity 2\n", "s.txt", 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("s.txt:2")
                .hasMessageContaining("selectivity");
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0\nfrobnicate 3\n", "s.txt", 0))
                .hasMessageContaining("s.txt:2").hasMessageContaining("frobnicate");
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 9\nclients 1 a T\n", "s.txt", 0))
                .hasMessageContaining("node 9");
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0\nclients 1 a U\n", "s.txt", 0))
                .hasMessageContaining("table U");
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0\nclients 1 z T\n", "s.txt", 0))
                .hasMessageContaining("'z'");
    }
    @Test
    void figure_16_loads_tpch_on_one_socket_with_lineitem_and_orders_as_a_group_and_22_templates() throws IOException {
        Scenario s = ScenarioParser.load("fig16", 0);
        assertThat(s.machine()).isEqualTo("32x18");
        assertThat(s.tables()).extracting(Scenario.TableSpec::nodes).allMatch(n -> n.equals(List.of(0)));
        assertThat(s.tables()).filteredOn(t -> t.name().equals("lineitem")).singleElement()
                .satisfies(t -> {
                    assertThat(t.rows()).isEqualTo(180_000_000L);
                    assertThat(t.rowBytes()).isPositive();
                });
        assertThat(s.groups()).singleElement().satisfies(g -> assertThat(g.tables())
                .containsExactly("lineitem", "orders"));
        assertThat(s.templates()).hasSize(22);
        assertThat(s.clients()).singleElement().satisfies(c -> {
            assertThat(c.query()).isEqualTo(Scenario.ClientSpec.MIX);
            assertThat(c.count()).isEqualTo(512);
            assertThat(c.templates()).hasSize(22).contains("Q1", "Q22");
        });
        assertThat(s.isSeedBenchmark()).isFalse();
        assertThat(ScenarioParser.load("fig10", 0).isSeedBenchmark()).isTrue();
    }

    @Test
    void templates_are_steps_joined_by_then_with_an_optional_weight() {
        Scenario s = ScenarioParser.parse("""
                table big node 0 rows 1000 row-bytes 16
                table small node 0 rows 10
                template J weight 3 scan big 12 then probe small 0.5 then merge big 4
                template K scan small 2
                clients 8 mix J,K from 1 to 5
                """, "t", 0);
        Scenario.Template j = s.templates().getFirst();
        assertThat(j.weight()).isEqualTo(3.0);
        assertThat(j.steps()).containsExactly(new Scenario.Step("scan", "big", 12),
                new Scenario.Step("probe", "small", 0.5), new Scenario.Step("merge", "big", 4));
        assertThat(s.templates().get(1).weight()).isEqualTo(1.0);
        assertThat(s.clients().getFirst().from()).isEqualTo(1.0);
        assertThat(s.scaled(0.5, 1).tables().getFirst().rows()).isEqualTo(500);
        assertThat(s.scaled(0.5, 1).tables().getFirst().rowBytes()).isEqualTo(16.0);
    }

    @Test
    void groups_templates_and_mixes_are_checked_against_what_the_scenario_declares() {
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0\ntemplate Q scan U 4\nclients 1 mix Q\n",
                "s.txt", 0)).hasMessageContaining("template Q").hasMessageContaining("table U");
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0\ntemplate Q scan T 4\nclients 1 mix R\n",
                "s.txt", 0)).hasMessageContaining("template R");
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0\ntemplate Q sort T 4\nclients 1 mix Q\n",
                "s.txt", 0)).hasMessageContaining("s.txt:2").hasMessageContaining("'sort'");
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0\ntemplate Q scan T 4 and scan T 2\n"
                + "clients 1 mix Q\n", "s.txt", 0)).hasMessageContaining("'then'");
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0\ntable U node 1\ngroup G T,U\n"
                + "clients 1 a T\n", "s.txt", 0)).hasMessageContaining("group G").hasMessageContaining("same nodes");
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0\ngroup G T,V\nclients 1 a T\n", "s.txt", 0))
                .hasMessageContaining("table V");
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0 rows -5\nclients 1 a T\n", "s.txt", 0))
                .hasMessageContaining("s.txt:1").hasMessageContaining("rows");
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0 colour red\nclients 1 a T\n", "s.txt", 0))
                .hasMessageContaining("colour");
    }

    @Test
    void a_cost_line_sets_what_a_step_kind_costs_per_row_and_bad_ones_are_named() {
        Scenario s = ScenarioParser.parse("table T node 0\nclients 1 b T\ncost probe 40 7.5\ncost merge 60 0\n",
                "c.txt", 0);
        assertThat(s.costs()).containsExactly(new Scenario.StepCost("probe", 40, 7.5),
                new Scenario.StepCost("merge", 60, 0));
        TaskCosts costs = TaskCosts.defaults().with(s.costs().getFirst());
        assertThat(costs.probeNanosPerRow()).isEqualTo(40.0);
        assertThat(costs.probeBytesPerRow()).isEqualTo(7.5);
        assertThat(costs.aggregateNanosPerRow()).isEqualTo(TaskCosts.defaults().aggregateNanosPerRow());
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0\nclients 1 a T\ncost scan 1 1\n", "c.txt", 0))
                .hasMessageContaining("c.txt:3").hasMessageContaining("'scan'");
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0\nclients 1 a T\ncost probe 0 1\n", "c.txt",
                0)).hasMessageContaining("c.txt:3").hasMessageContaining("positive");
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0\nclients 1 a T\ncost probe 4 1\n"
                + "cost probe 5 1\n", "c.txt", 0)).hasMessageContaining("c.txt:4").hasMessageContaining("twice");
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0\nclients 1 a T\ncost probe 4\n", "c.txt", 0))
                .hasMessageContaining("c.txt:3").hasMessageContaining("missing");
        assertThatThrownBy(() -> ScenarioParser.parse("table T node 0\nclients 1 a T\ncost probe Infinity 4\n",
                "c.txt", 0)).hasMessageContaining("c.txt:3").hasMessageContaining("finite");
        // Scaling or changing a scenario keeps its costs; a scenario with costs is not the plain benchmark.
        assertThat(s.scaled(0.5, 0.5).withStealing("never").costs()).isEqualTo(s.costs());
        assertThat(s.isSeedBenchmark()).isFalse();
    }
}
