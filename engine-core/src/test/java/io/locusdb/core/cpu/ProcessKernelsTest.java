package io.locusdb.core.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The constants the hot paths read are the process's selection, and a setting forces them (the build runs the query
 * tests a second time with {@code -Dlocus.kernels=scalar -Dlocus.kernel.pext=off}, this test among them).
 */
class ProcessKernelsTest {

    @Test
    void theHotPathConstantsAreTheSelectionsChoicesAndFollowTheSettings() {
        KernelSelection selection = Kernels.selection();
        assertThat(Kernels.RANGE_COUNT).isEqualTo(selection.choice(KernelShape.RANGE_COUNT).variant());
        assertThat(Kernels.RANGE_SELECT).isEqualTo(selection.choice(KernelShape.RANGE_SELECT).variant());
        assertThat(Kernels.VERTICAL_DECODE).isEqualTo(selection.choice(KernelShape.VERTICAL_DECODE).variant());
        assertThat(Kernels.GROUPED_SUMS).isEqualTo(selection.choice(KernelShape.GROUPED_SUMS).variant());
        assertThat(Kernels.PEXT).isEqualTo(selection.pext());
        assertThat(Kernels.RANGE_SELECT_PEXT).isEqualTo(selection.choice(KernelShape.RANGE_SELECT).pext());
        assertThat(selection.cpu()).isEqualTo(CpuInfo.current());
        KernelSettings settings = KernelSettings.fromEnvironment();
        settings.all().ifPresent(forced -> {
            assertThat(Kernels.RANGE_COUNT).isEqualTo(forced);
            assertThat(Kernels.RANGE_SELECT).isEqualTo(forced);
            assertThat(Kernels.GROUPED_SUMS).isEqualTo(forced);
        });
        settings.pext().ifPresent(forced -> assertThat(Kernels.PEXT).isEqualTo(forced));
        settings.pext().filter(forced -> !forced)
                .ifPresent(off -> assertThat(Kernels.RANGE_SELECT_PEXT || Kernels.BYTE_MASKS).isFalse());
        assertThat(selection.describe()).contains("range-select", "pext/pdep");
    }
}
