package io.locusdb.bench.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class MachineModelTest {

    @Test
    void the_presets_carry_the_papers_table_2() {
        MachineModel four = MachineModel.fourSockets();
        assertThat(four.nodes()).isEqualTo(4);
        assertThat(four.threadsPerNode()).isEqualTo(15);
        assertThat(four.localBandwidth()).isEqualTo(70e9);
        assertThat(four.pathBandwidth(0, 3)).isEqualTo(12.5e9);
        assertThat(four.stealingThreshold()).isEqualTo(1200e6);
        assertThat(four.moveMicrosPerPage()).isEqualTo(59);
        assertThat(four.partitionMicrosPerPage()).isEqualTo(109);

        MachineModel uv = MachineModel.thirtyTwoSockets();
        assertThat(uv.nodes() * uv.threadsPerNode()).isEqualTo(576);
        assertThat(uv.latencyNanos()).containsExactly(120, 320, 590);
        assertThat(uv.stealingThreshold()).isEqualTo(230e6);
    }

    @Test
    void every_remote_node_of_the_four_socket_machine_is_one_hop_away() {
        MachineModel four = MachineModel.fourSockets();
        for (int a = 0; a < 4; a++) {
            for (int b = 0; b < 4; b++) {
                assertThat(four.level(a, b)).isEqualTo(a == b ? 0 : 1);
            }
        }
    }

    @Test
    void the_eight_socket_machine_reaches_every_node_in_at_most_two_hops_with_three_links_each() {
        MachineModel eight = MachineModel.eightSockets();
        for (int a = 0; a < 8; a++) {
            int oneHop = 0;
            for (int b = 0; b < 8; b++) {
                assertThat(eight.level(a, b)).isBetween(a == b ? 0 : 1, 2);
                assertThat(eight.level(a, b)).isEqualTo(eight.level(b, a));
                oneHop += eight.level(a, b) == 1 ? 1 : 0;
            }
            assertThat(oneHop).isEqualTo(3);
        }
    }

    @Test
    void a_thread_reads_remote_memory_slower_by_the_latency_ratio() {
        MachineModel eight = MachineModel.eightSockets();
        double local = eight.threadBandwidth(0, 0);
        assertThat(eight.threadBandwidth(0, 1)).isCloseTo(local * 110 / 320, within(1.0));
        assertThat(eight.threadBandwidth(0, 2)).isCloseTo(local * 110 / 390, within(1.0));
    }

    @Test
    void thieves_look_at_the_nearest_nodes_first() {
        MachineModel uv = MachineModel.thirtyTwoSockets();
        int[] order = uv.stealingOrder(5);
        assertThat(order).hasSize(31).doesNotContain(5);
        assertThat(order).startsWith(6, 7, 4);
        for (int i = 1; i < order.length; i++) {
            assertThat(uv.level(5, order[i])).isGreaterThanOrEqualTo(uv.level(5, order[i - 1]));
        }
    }

    @Test
    void an_unknown_preset_is_named_in_the_error() {
        assertThatThrownBy(() -> MachineModel.preset("16x12")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("16x12");
    }
}
