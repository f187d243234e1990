package io.locusdb.core.cpu;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Kernel forms forced by hand, for comparisons and for machines whose flags or timings mislead: {@code locus.kernels}
 * (every shape), {@code locus.kernel.<shape>} (one shape, e.g. {@code locus.kernel.range-select}) with values
 * {@code 512}, {@code 256}, {@code scalar} or {@code auto}, and {@code locus.kernel.pext} ({@code on}, {@code off} or
 * {@code auto}). They are JVM system properties ({@code LOCUS_JAVA_OPTS="-Dlocus.kernels=scalar" ./locus ...}); the
 * environment variables {@code LOCUS_KERNELS} and {@code LOCUS_KERNEL_PEXT} stand for the first and the last.
 * {@code locus.scan.portable=true}, the older setting, keeps the kernels off 512-bit vectors.
 */
public record KernelSettings(Optional<KernelVariant> all, Map<KernelShape, KernelVariant> perShape,
                             Optional<Boolean> pext, boolean portable) {
    public static final String ALL = "locus.kernels";
    public static final String PREFIX = "locus.kernel.";
    public static final String PEXT = "locus.kernel.pext";
    public static final String PORTABLE = "locus.scan.portable";
    public static final KernelSettings AUTO = new KernelSettings(Optional.empty(), Map.of(), Optional.empty(), false);

    public KernelSettings {
        perShape = Map.copyOf(perShape);
    }

    /** The settings of this process: system properties, then the environment. */
    public static KernelSettings fromEnvironment() {
        Map<String, String> values = new HashMap<>();
        String env = System.getenv("LOCUS_KERNELS");
        if (env != null && !env.isBlank()) {
            values.put(ALL, env);
        }
        String envPext = System.getenv("LOCUS_KERNEL_PEXT");
        if (envPext != null && !envPext.isBlank()) {
            values.put(PEXT, envPext);
        }
        System.getProperties().forEach((k, v) -> {
            String key = k.toString();
            if (key.equals(ALL) || key.startsWith(PREFIX) || key.equals(PORTABLE)) {
                values.put(key, v.toString());
            }
        });
        return parse(values);
    }

    /**
     * Settings from {@code name -> value}; keys other than these settings are ignored. A value or shape it does
     * not know is an error naming the setting.
     */
    public static KernelSettings parse(Map<String, String> values) {
        Optional<KernelVariant> all = Optional.empty();
        Map<KernelShape, KernelVariant> perShape = new EnumMap<>(KernelShape.class);
        Optional<Boolean> pext = Optional.empty();
        boolean portable = false;
        for (Map.Entry<String, String> e : values.entrySet()) {
            String key = e.getKey();
            String value = e.getValue().trim();
            if (key.equals(ALL)) {
                all = variant(key, value);
            } else if (key.equals(PEXT)) {
                pext = switch (value.toLowerCase(Locale.ROOT)) {
                    case "on", "true" -> Optional.of(true);
                    case "off", "false" -> Optional.of(false);
                    case "auto", "" -> Optional.empty();
                    default -> throw new IllegalArgumentException("setting " + key + " is '" + value
                            + "': expected on, off or auto");
                };
            } else if (key.equals(PORTABLE)) {
                portable = Boolean.parseBoolean(value);
            } else if (key.startsWith(PREFIX)) {
                KernelShape shape;
                try {
                    shape = KernelShape.fromSetting(key.substring(PREFIX.length()));
                } catch (IllegalArgumentException unknown) {
                    throw new IllegalArgumentException("setting " + key + " names no kernel: expected "
                            + PREFIX + "<shape> with a shape of " + shapes() + ", or " + PEXT);
                }
                variant(key, value).ifPresent(v -> perShape.put(shape, v));
            }
        }
        return new KernelSettings(all, perShape, pext, portable);
    }

    private static Optional<KernelVariant> variant(String key, String value) {
        return value.isEmpty() || value.equalsIgnoreCase("auto") ? Optional.empty()
                : Optional.of(KernelVariant.fromSetting(key, value));
    }

    private static String shapes() {
        StringBuilder b = new StringBuilder();
        for (KernelShape shape : KernelShape.values()) {
            b.append(b.isEmpty() ? "" : ", ").append(shape.setting());
        }
        return b.toString();
    }

    /** The variant forced for {@code shape} and the setting that forced it, if any. */
    Optional<Map.Entry<String, KernelVariant>> forced(KernelShape shape) {
        KernelVariant own = perShape.get(shape);
        if (own != null) {
            return Optional.of(Map.entry(PREFIX + shape.setting(), own));
        }
        return all.map(v -> Map.entry(ALL, v));
    }
}
