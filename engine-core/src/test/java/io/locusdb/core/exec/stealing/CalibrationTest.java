package io.locusdb.core.exec.stealing;

import io.locusdb.core.exec.AdaptiveStealing;
import io.locusdb.core.exec.StealingPolicy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CalibrationTest {
    @TempDir
    Path dir;

    @Test
    void a_stored_calibration_reads_back_and_configures_adaptive_stealing() throws IOException {
        Calibration stored = new Calibration(1.2e9, 0.8, 1.5, Double.NaN, "real 2 nodes", "switch at n=8",
                Instant.parse("2026-11-21T12:00:00Z"));
        Path file = dir.resolve("sub/calibration.properties");
        stored.save(file);

        assertThat(Calibration.load(file)).contains(stored);
        StealingPolicy policy = Calibration.adaptivePolicy(file);
        assertThat(policy).isInstanceOf(AdaptiveStealing.class);
        assertThat(((AdaptiveStealing) policy).thresholdBytesPerSecond()).isEqualTo(1.2e9);
    }

    @Test
    void without_a_file_the_default_threshold_applies_and_a_damaged_file_is_named() throws IOException {
        assertThat(Calibration.load(dir.resolve("none.properties"))).isEmpty();
        assertThat(((AdaptiveStealing) Calibration.adaptivePolicy(dir.resolve("none.properties")))
                .thresholdBytesPerSecond()).isEqualTo(io.locusdb.core.exec.ExecutorConfig.DEFAULT_STEALING_THRESHOLD);

        Path damaged = dir.resolve("damaged.properties");
        Files.writeString(damaged, "stealing.threshold.bytes_per_second=fast\n");
        assertThatThrownBy(() -> Calibration.load(damaged)).isInstanceOf(IOException.class)
                .hasMessageContaining("damaged.properties").hasMessageContaining("not a number");
    }
}
