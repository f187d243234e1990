package io.locusdb.bench.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.natives.topology.FakeTopology;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CalibrationExperimentTest {

    private static List<CalibrationExperiment.Point> curve(String mode, double[] qps, double[] classMbps) {
        List<CalibrationExperiment.Point> points = new ArrayList<>();
        int[] powers = {1, 2, 4, 8, 16};
        for (int i = 0; i < qps.length; i++) {
            points.add(new CalibrationExperiment.Point(powers[i], mode, qps[i] / 1000, qps[i], classMbps[i] * 1e6, 100,
                    0));
        }
        return points;
    }

    @Test
    void the_threshold_lies_between_the_class_throughputs_around_the_switch_point() {
        double[] classTp = {8000, 6000, 3000, 1200, 500};
        var never = curve("never", new double[] {100, 90, 60, 30, 15}, classTp);
        var always = curve("always", new double[] {40, 60, 55, 45, 28}, classTp);

        CalibrationExperiment.Threshold t = CalibrationExperiment.Threshold.from(never, always);

        assertThat(t.switchPower()).isEqualTo(8);
        assertThat(t.bytesPerSecond()).isEqualTo((3000 + 1200) / 2.0 * 1e6);
        assertThat(t.explanation()).contains("n=8");
    }

    @Test
    void one_noisy_point_before_the_real_switch_does_not_count() {
        double[] classTp = {8000, 6000, 3000, 1200, 500};
        var never = curve("never", new double[] {100, 90, 60, 30, 15}, classTp);
        var always = curve("always", new double[] {40, 95, 50, 45, 28}, classTp);

        assertThat(CalibrationExperiment.Threshold.from(never, always).switchPower()).isEqualTo(8);
    }

    @Test
    void without_a_switch_point_the_threshold_says_which_way_it_went() {
        double[] classTp = {8000, 6000, 3000, 1200, 500};
        var never = curve("never", new double[] {100, 90, 60, 30, 15}, classTp);
        var stealingAlwaysWins = curve("always", new double[] {150, 130, 90, 45, 28}, classTp);
        var stealingAlwaysLoses = curve("always", new double[] {50, 40, 30, 20, 10}, classTp);

        CalibrationExperiment.Threshold high = CalibrationExperiment.Threshold.from(never, stealingAlwaysWins);
        CalibrationExperiment.Threshold low = CalibrationExperiment.Threshold.from(never, stealingAlwaysLoses);

        assertThat(high.bytesPerSecond()).isEqualTo(8000e6 * 2);
        assertThat(high.explanation()).contains("never slower");
        assertThat(low.bytesPerSecond()).isEqualTo(500e6 * 0.8);
        assertThat(low.switchPower()).isEqualTo(-1);
    }

    @Test
    void a_short_run_on_the_fake_two_node_topology_measures_every_curve() {
        Topology real = Topologies.real();
        Topology fake = FakeTopology.split(real, Math.min(2, real.cpuCount()));
        var settings = new CalibrationExperiment.Settings(fake, 1 << 20, 2, new int[] {1, 8}, 0.2, 0.05, true);
        List<String> log = new ArrayList<>();

        CalibrationExperiment.Result result = new CalibrationExperiment(settings, log::add).run();

        assertThat(result.never()).hasSize(2);
        assertThat(result.always()).hasSize(2);
        assertThat(result.adaptive()).hasSize(2);
        assertThat(result.never()).allSatisfy(p -> {
            assertThat(p.elementsPerSecond()).isPositive();
            assertThat(p.classThroughput()).isPositive();
            assertThat(p.stolen()).as("never-steal steals nothing").isZero();
        });
        assertThat(result.threshold().bytesPerSecond()).isPositive();
        assertThat(log.getFirst()).contains("2 vectors");
    }

    @Test
    void a_one_node_topology_is_refused_with_advice() {
        Topology real = Topologies.real();
        Topology one = FakeTopology.split(real, 1);
        assertThatThrownBy(() -> new CalibrationExperiment.Settings(one, 1 << 20, 1, new int[] {1}, 1, 0, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fake:2");
    }
}
