package io.locusdb.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.exec.AdaptiveStealing;
import io.locusdb.core.exec.stealing.Calibration;
import io.locusdb.core.exec.stealing.StealingPolicies;
import io.locusdb.core.storage.TestStorage;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CalibratedConfigTest {
    private static final Calibration MEASURED = new Calibration(2.5e9, 0.5, 1.5, 3.0, "fake:2", "",
            Instant.EPOCH);

    @Test
    void theExecutorStealsWithTheCalibratedThreshold() {
        LocusConfig config = LocusConfig.of(TestStorage.twoNodes()).withCalibration(MEASURED);
        assertThat(config.executorConfig().stealing()).isInstanceOfSatisfying(AdaptiveStealing.class,
                s -> assertThat(s.thresholdBytesPerSecond()).isEqualTo(2.5e9));
        assertThat(config.calibrationSummary()).startsWith("calibrated: stealing threshold 2500.0 MB/s");
    }

    @Test
    void anExplicitStealingPolicyWinsAndNoCalibrationMeansTheBuiltInThreshold() {
        LocusConfig explicit = LocusConfig.of(TestStorage.twoNodes()).withCalibration(MEASURED)
                .withExecutor(b -> b.stealing(StealingPolicies.adaptive(7e6)));
        assertThat(((AdaptiveStealing) explicit.executorConfig().stealing()).thresholdBytesPerSecond())
                .isEqualTo(7e6);
        LocusConfig plain = LocusConfig.of(TestStorage.twoNodes());
        assertThat(plain.storedCalibration()).isEmpty();
        assertThat(((AdaptiveStealing) plain.executorConfig().stealing()).thresholdBytesPerSecond())
                .isEqualTo(1_000e6);
        assertThat(plain.calibrationSummary()).contains("not calibrated", "./locus calibrate");
    }
}
