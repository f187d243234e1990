package io.locusdb.core.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BitExtractSpeedTest {
    private static final CpuInfo ONE = new CpuInfo("AuthenticAMD", 23, 49, "AMD EPYC 7B12", Set.of("bmi2"));
    private static final CpuInfo OTHER = new CpuInfo("GenuineIntel", 6, 85, "Intel Xeon Gold 6148", Set.of("bmi2"));

    @Test
    void aMeasurementTakesAFewTensOfMillisecondsAndTimesBothForms() {
        long start = System.nanoTime();
        BitExtractSpeed speed = BitExtractSpeed.measure();
        long took = System.nanoTime() - start;
        assertThat(speed.pextNanos()).isPositive();
        assertThat(speed.portableNanos()).isPositive();
        assertThat(took).isLessThan(10 * BitExtractSpeed.BUDGET_NANOS);
    }

    @Test
    void measurementsAreCachedPerCpuModelAndADamagedCacheIsMeasuredAgain(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("home").resolve("cpu-kernels.properties");
        assertThat(BitExtractSpeed.cached(file, ONE)).isEmpty();
        assertThat(new BitExtractSpeed(9.5, 1.25, "x", true).store(file, ONE)).isTrue();
        assertThat(new BitExtractSpeed(0.5, 1.5, "x", true).store(file, OTHER)).isTrue();
        assertThat(BitExtractSpeed.cached(file, ONE)).hasValueSatisfying(s -> {
            assertThat(s.pextNanos()).isEqualTo(9.5);
            assertThat(s.portableNanos()).isEqualTo(1.25);
            assertThat(s.pextFaster()).isFalse();
            assertThat(s.source()).contains(file.toString());
        });
        assertThat(BitExtractSpeed.cached(file, OTHER)).hasValueSatisfying(s -> assertThat(s.pextFaster()).isTrue());

        Files.writeString(file, ONE.key() + ".pext_ns=fast\n" + ONE.key() + ".portable_ns=-1\n");
        assertThat(BitExtractSpeed.cached(file, ONE)).isEmpty();
        Files.write(file, new byte[] {(byte) 0xC3, '\\', 'u', 'z'});
        assertThat(BitExtractSpeed.cached(file, ONE)).isEmpty();
        assertThat(new BitExtractSpeed(1, 2, "x", true).store(file, ONE)).isTrue();
        assertThat(BitExtractSpeed.cached(file, ONE)).isPresent();
    }

    @Test
    void aMeasurementThatNeverSettledIsNotCached(@TempDir Path dir) {
        Path file = dir.resolve("cpu-kernels.properties");
        assertThat(new BitExtractSpeed(30.8, 13.4, "x", false).store(file, ONE)).isFalse();
        assertThat(file).doesNotExist();
    }
}
