package io.locusdb.core.cpu;

/**
 * The form one kernel shape runs in here: its variant, whether it moves bits with PEXT/PDEP (else with the portable
 * code of {@link PortableBits}), and why.
 */
public record KernelChoice(KernelShape shape, KernelVariant variant, boolean pext, String reason) {
}
