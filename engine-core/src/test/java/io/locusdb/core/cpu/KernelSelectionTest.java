package io.locusdb.core.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class KernelSelectionTest {
    private static final Set<String> AVX2 = Set.of("sse4_2", "popcnt", "avx", "avx2", "bmi1", "bmi2");
    private static final CpuInfo EPYC_ZEN2 = new CpuInfo("AuthenticAMD", 23, 49, "AMD EPYC 7B12", AVX2);
    private static final CpuInfo EPYC_ZEN3 = new CpuInfo("AuthenticAMD", 25, 1, "AMD EPYC 7B13", AVX2);
    private static final CpuInfo XEON_ICELAKE = new CpuInfo("GenuineIntel", 6, 106, "Intel Xeon Platinum 8375C",
            union(AVX2, Set.of("avx512f", "avx512bw", "avx512_vpopcntdq")));
    private static final CpuInfo XEON_SKYLAKE = new CpuInfo("GenuineIntel", 6, 85, "Intel Xeon Gold 6148",
            union(AVX2, Set.of("avx512f", "avx512bw")));
    private static final Supplier<BitExtractSpeed> FAST_PEXT = () -> new BitExtractSpeed(0.4, 1.1, "test", true);
    private static final Supplier<BitExtractSpeed> SLOW_PEXT = () -> new BitExtractSpeed(9.0, 1.1, "test", true);

    @Test
    void aZen2EpycGetsNoPextWhateverItWouldMeasureAnd256BitVectors() {
        AtomicInteger measured = new AtomicInteger();
        KernelSelection s = KernelSelection.decide(EPYC_ZEN2, 4, KernelSettings.AUTO, () -> {
            measured.incrementAndGet();
            return FAST_PEXT.get();
        });
        assertThat(s.pext()).isFalse();
        assertThat(s.pextReason()).contains("microcoded", "family 23");
        assertThat(measured).hasValue(0);
        assertThat(s.width()).isEqualTo(KernelVariant.VECTOR_256);
        assertThat(s.choice(KernelShape.RANGE_SELECT)).extracting(KernelChoice::variant, KernelChoice::pext)
                .containsExactly(KernelVariant.VECTOR_256, false);
        assertThat(s.choice(KernelShape.VERTICAL_DECODE)).extracting(KernelChoice::variant, KernelChoice::pext)
                .containsExactly(KernelVariant.VECTOR_256, false);
        assertThat(s.choice(KernelShape.VERTICAL_DECODE).reason()).contains("32-lane", "table");
        assertThat(s.lanePopcount()).isFalse();
        assertThat(s.byteMasks()).isFalse();
    }

    @Test
    void whereNoTableSaysPextIsSlowTheMeasurementDecides() {
        KernelSelection fast = KernelSelection.decide(EPYC_ZEN3, 4, KernelSettings.AUTO, FAST_PEXT);
        assertThat(fast.pext()).isTrue();
        assertThat(fast.pextReason()).contains("0.40 ns", "1.10 ns");
        assertThat(fast.choice(KernelShape.RANGE_SELECT).pext()).as("256-bit select gathers in vectors").isFalse();
        assertThat(fast.choice(KernelShape.VERTICAL_DECODE).pext()).isTrue();
        KernelSelection slow = KernelSelection.decide(EPYC_ZEN3, 4, KernelSettings.AUTO, SLOW_PEXT);
        assertThat(slow.pext()).isFalse();
        assertThat(slow.choice(KernelShape.VERTICAL_DECODE).pext()).isFalse();
        KernelSelection scalarFast = KernelSelection.decide(EPYC_ZEN3, 4,
                KernelSettings.parse(Map.of(KernelSettings.ALL, "scalar")), FAST_PEXT);
        assertThat(scalarFast.choice(KernelShape.RANGE_SELECT).pext()).isTrue();
    }

    @Test
    void anAvx512CpuGets512BitKernelsWithLanePopcountsAndByteMasksWhereItHasThem() {
        KernelSelection ice = KernelSelection.decide(XEON_ICELAKE, 8, KernelSettings.AUTO, FAST_PEXT);
        assertThat(ice.width()).isEqualTo(KernelVariant.VECTOR_512);
        assertThat(ice.lanePopcount()).isTrue();
        assertThat(ice.byteMasks()).isTrue();
        assertThat(ice.choice(KernelShape.VERTICAL_DECODE).variant()).isEqualTo(KernelVariant.VECTOR_512);
        assertThat(ice.choice(KernelShape.RANGE_COUNT).reason()).contains("VPOPCNTQ");
        KernelSelection iceSlowPerWord = KernelSelection.decide(XEON_ICELAKE, 8, KernelSettings.AUTO, SLOW_PEXT);
        assertThat(iceSlowPerWord.pext()).isFalse();
        assertThat(iceSlowPerWord.byteMasks()).as("one PEXT a vector needs PEXT native, not fast per word").isTrue();
        assertThat(iceSlowPerWord.choice(KernelShape.RANGE_SELECT).pext()).as("512 keeps native PEXT").isTrue();
        KernelSelection iceNoPext = KernelSelection.decide(XEON_ICELAKE, 8,
                KernelSettings.parse(Map.of(KernelSettings.PEXT, "off")), FAST_PEXT);
        assertThat(iceNoPext.byteMasks()).isFalse();
        KernelSelection sky = KernelSelection.decide(XEON_SKYLAKE, 8, KernelSettings.AUTO, FAST_PEXT);
        assertThat(sky.lanePopcount()).isFalse();
        assertThat(sky.choice(KernelShape.RANGE_COUNT).reason()).contains("per-field counters");
    }

    @Test
    void aJvmWhoseVectorsAreNarrowerThanTheCpusKeepsTheKernelsAtItsWidth() {
        KernelSelection s = KernelSelection.decide(XEON_ICELAKE, 4, KernelSettings.AUTO, FAST_PEXT);
        assertThat(s.width()).isEqualTo(KernelVariant.VECTOR_256);
        assertThat(s.widthReason()).contains("256 bits");
        assertThat(s.byteMasks()).isFalse();
        KernelSelection noVectors = KernelSelection.decide(new CpuInfo("GenuineIntel", 6, 15, "old", Set.of("sse2")),
                2, KernelSettings.AUTO, FAST_PEXT);
        assertThat(noVectors.width()).isEqualTo(KernelVariant.SCALAR);
        assertThat(noVectors.pext()).isFalse();
        assertThat(noVectors.pextReason()).isEqualTo("no BMI2");
    }

    @Test
    void settingsForceFormsForEveryShapeOrOneAndSayWhenAFormIsEmulated() {
        KernelSettings settings = KernelSettings.parse(Map.of(KernelSettings.ALL, "scalar",
                "locus.kernel.range-select", "512", KernelSettings.PEXT, "off"));
        KernelSelection s = KernelSelection.decide(EPYC_ZEN3, 4, settings, FAST_PEXT);
        assertThat(s.pext()).isFalse();
        assertThat(s.pextReason()).contains("forced by locus.kernel.pext=off");
        assertThat(s.choice(KernelShape.RANGE_COUNT).variant()).isEqualTo(KernelVariant.SCALAR);
        assertThat(s.choice(KernelShape.GROUPED_SUMS).variant()).isEqualTo(KernelVariant.SCALAR);
        KernelChoice select = s.choice(KernelShape.RANGE_SELECT);
        assertThat(select.variant()).isEqualTo(KernelVariant.VECTOR_512);
        assertThat(select.reason()).contains("forced by locus.kernel.range-select=512", "emulated");
        assertThat(s.describe()).contains("range-select", "AMD EPYC 7B13", "pext/pdep: not used");
    }

    @Test
    void theOlderPortableSettingKeepsAnAvx512CpuOff512BitVectors() {
        KernelSettings portable = KernelSettings.parse(Map.of(KernelSettings.PORTABLE, "true"));
        KernelSelection s = KernelSelection.decide(XEON_ICELAKE, 8, portable, FAST_PEXT);
        assertThat(s.width()).isEqualTo(KernelVariant.VECTOR_256);
        assertThat(s.lanePopcount()).isFalse();
    }

    @Test
    void invalidSettingsAreErrorsNamingTheSetting() {
        assertThatThrownBy(() -> KernelSettings.parse(Map.of(KernelSettings.ALL, "1024")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("locus.kernels")
                .hasMessageContaining("1024");
        assertThatThrownBy(() -> KernelSettings.parse(Map.of("locus.kernel.sort", "256")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("locus.kernel.sort");
        assertThatThrownBy(() -> KernelSettings.parse(Map.of(KernelSettings.PEXT, "maybe")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("locus.kernel.pext");
        assertThat(KernelSettings.parse(Map.of(KernelSettings.ALL, "auto", "unrelated", "x")))
                .isEqualTo(KernelSettings.AUTO);
    }

    @Test
    void cpuInfoIsReadFromTheFirstProcessorsBlock() {
        CpuInfo cpu = CpuInfo.parse(List.of("processor\t: 0", "vendor_id\t: AuthenticAMD", "cpu family\t: 23",
                "model\t\t: 49", "model name\t: AMD EPYC 7B12", "flags\t\t: fpu avx2 bmi2", "",
                "processor\t: 1", "vendor_id\t: Other", "flags\t\t: fpu"));
        assertThat(cpu).isEqualTo(new CpuInfo("AuthenticAMD", 23, 49, "AMD EPYC 7B12", Set.of("fpu", "avx2",
                "bmi2")));
        assertThat(KernelSelection.knownSlowBitExtract(cpu)).isTrue();
        assertThat(CpuInfo.parse(List.of("garbage"))).isEqualTo(CpuInfo.UNKNOWN);
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        return Stream.concat(a.stream(), b.stream()).collect(Collectors.toSet());
    }
}
