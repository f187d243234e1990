package io.locusdb.core.cpu;

import java.util.Locale;

/** The hot kernels whose form is chosen per CPU. */
public enum KernelShape {
    /** Counting the rows of a value-ID range on packed codes. */
    RANGE_COUNT("range-count"),
    /** The selection bitmap of a value-ID range on packed codes. */
    RANGE_SELECT("range-select"),
    /** Vertically packed codes (8 bits and narrower) back to IDs. */
    VERTICAL_DECODE("vertical-decode"),
    /** Horizontally packed codes back to IDs. */
    HORIZONTAL_DECODE("horizontal-decode"),
    /** Selected rows' IDs looked up in the dictionary. */
    GATHER_LOOKUP("gather-lookup"),
    /** Per-group sums of a batch. */
    GROUPED_SUMS("grouped-sums");

    private final String setting;

    KernelShape(String setting) {
        this.setting = setting;
    }

    /** The shape's name in settings ({@code locus.kernel.range-select=scalar}) and in {@code ./locus cpu}. */
    public String setting() {
        return setting;
    }

    public static KernelShape fromSetting(String value) {
        for (KernelShape shape : values()) {
            if (shape.setting.equals(value.toLowerCase(Locale.ROOT))) {
                return shape;
            }
        }
        throw new IllegalArgumentException("unknown kernel shape '" + value + "'");
    }
}
