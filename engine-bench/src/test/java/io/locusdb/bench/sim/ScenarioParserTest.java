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
}
