package io.locusdb.core.cpu;

import java.util.Locale;

/**
 * The forms of a hot kernel: on 512-bit vectors, on 256-bit vectors, or scalar. Every form is correct on every CPU;
 * a vector form on a CPU without vectors of its width is emulated by the Vector API in plain Java, correct but
 * many times slower, so it is chosen there only when a setting forces it.
 */
public enum KernelVariant {
    VECTOR_512("512"),
    VECTOR_256("256"),
    SCALAR("scalar");

    private final String setting;

    KernelVariant(String setting) {
        this.setting = setting;
    }

    /** How the variant is written in a setting ({@code locus.kernels=256}) and printed. */
    public String setting() {
        return setting;
    }

    public static KernelVariant fromSetting(String name, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        for (KernelVariant variant : values()) {
            if (variant.setting.equals(v) || variant.name().equalsIgnoreCase(v)) {
                return variant;
            }
        }
        throw new IllegalArgumentException("setting " + name + " is '" + value
                + "': expected 512, 256, scalar or auto");
    }
}
