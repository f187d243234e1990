package io.locusdb.natives.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CpuSetTest {
    @Test
    void parsesAndPrintsTheKernelListSyntax() {
        CpuSet set = CpuSet.parse("0-3, 8,10-11");
        assertThat(set.toArray()).containsExactly(0, 1, 2, 3, 8, 10, 11);
        assertThat(set.toString()).isEqualTo("0-3,8,10-11");
        assertThat(CpuSet.parse("").isEmpty()).isTrue();
    }

    @Test
    void roundTripsThroughKernelMaskWords() {
        CpuSet set = CpuSet.of(0, 63, 64, 130);
        assertThat(CpuSet.fromMaskWords(set.toMaskWords(16))).isEqualTo(set);
        assertThat(set.toMaskWords(16)).hasSize(16);
    }

    @Test
    void rejectsMalformedListsNamingTheToken() {
        assertThatThrownBy(() -> CpuSet.parse("0-x")).hasMessageContaining("'0-x'");
        assertThatThrownBy(() -> CpuSet.parse("5-2")).hasMessageContaining("descending");
    }
}
