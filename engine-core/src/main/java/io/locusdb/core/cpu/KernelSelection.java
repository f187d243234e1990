package io.locusdb.core.cpu;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Which form of each hot kernel runs on this CPU, and why. Flags rule out what the CPU lacks; a table of CPUs
 * known to be slow at PEXT/PDEP, and where the table says nothing a measurement ({@link BitExtractSpeed}), rule out
 * what is slow; settings ({@link KernelSettings}) override both.
 *
 * <ul>
 * <li>Vector width: 512 bits with AVX-512F where the JVM's preferred vectors are that wide, 256 with AVX2, else
 * scalar.</li>
 * <li>PEXT/PDEP: with BMI2, except on AMD families 21-24 (Excavator, Zen 1 and 2, Hygon Dhyana) where they are
 * microcoded. Where they are native, the 512-bit select (byte masks, one PEXT a vector) uses them; their uses a
 * word at a time follow a measurement against their portable replacement.</li>
 * <li>Per shape: range count, range select and grouped sums at the CPU's width (count with VPOPCNTQ at 512 where
 * the CPU has it); vertical decode with 64-lane byte masks where AVX-512BW is there, else with 32-lane ones at 256
 * bits; horizontal decode and the dictionary lookup are scalar, their only form.</li>
 * </ul>
 */
public record KernelSelection(CpuInfo cpu, KernelVariant width, String widthReason, boolean pext, String pextReason,
                              boolean lanePopcount, boolean byteMasks, Map<KernelShape, KernelChoice> choices) {

    public KernelSelection {
        choices = Map.copyOf(choices);
    }

    /**
     * Decides for {@code cpu}, whose JVM prefers vectors of {@code preferredLongLanes} longs; {@code speed} is asked
     * only when PEXT's speed decides.
     */
    public static KernelSelection decide(CpuInfo cpu, int preferredLongLanes, KernelSettings settings,
                                         Supplier<BitExtractSpeed> speed) {
        KernelVariant width;
        String widthReason;
        if (cpu.has("avx512f") && preferredLongLanes >= 8 && !settings.portable()) {
            width = KernelVariant.VECTOR_512;
            widthReason = "AVX-512F, and the JVM's vectors are 512 bits";
        } else if (cpu.has("avx2") && preferredLongLanes >= 4) {
            width = KernelVariant.VECTOR_256;
            widthReason = cpu.has("avx512f")
                    ? (settings.portable() ? KernelSettings.PORTABLE + "=true keeps vectors at 256 bits"
                            : "AVX-512F, but the JVM's vectors are " + preferredLongLanes * 64 + " bits")
                    : "AVX2, no AVX-512";
        } else {
            width = KernelVariant.SCALAR;
            widthReason = "no AVX2 (or the JVM's vectors are " + preferredLongLanes * 64 + " bits)";
        }

        boolean pext;
        String pextReason;
        if (settings.pext().isPresent()) {
            pext = settings.pext().get();
            pextReason = "forced by " + KernelSettings.PEXT + "=" + (pext ? "on" : "off")
                    + (pext && !cpu.has("bmi2") ? " (no BMI2 here: emulated in Java, slow)" : "");
        } else if (!cpu.has("bmi2")) {
            pext = false;
            pextReason = "no BMI2";
        } else if (knownSlowBitExtract(cpu)) {
            pext = false;
            pextReason = String.format(Locale.ROOT, "PEXT/PDEP are microcoded on AMD family %d (0x%x)", cpu.family(),
                    cpu.family());
        } else {
            BitExtractSpeed s = speed.get();
            pext = s.pextFaster();
            pextReason = String.format(Locale.ROOT, "PEXT %.2f ns against %.2f ns portable per word (%s)",
                    s.pextNanos(), s.portableNanos(), s.source());
        }
        boolean lanePopcount = width == KernelVariant.VECTOR_512 && cpu.has("avx512_vpopcntdq");
        // The byte-mask select needs one PEXT a vector of 8 words, not one a word: native PEXT is enough for it,
        // whatever the per-word measurement says (that one compares PEXT with a multiply a word).
        boolean nativePext = settings.pext().orElse(cpu.has("bmi2") && !knownSlowBitExtract(cpu));
        boolean byteMasks = width == KernelVariant.VECTOR_512 && cpu.has("avx512bw") && nativePext;

        Map<KernelShape, KernelChoice> choices = new EnumMap<>(KernelShape.class);
        for (KernelShape shape : KernelShape.values()) {
            choices.put(shape, choose(shape, cpu, width, pext, nativePext, byteMasks, lanePopcount, settings));
        }
        return new KernelSelection(cpu, width, widthReason, pext, pextReason, lanePopcount, byteMasks, choices);
    }

    /** AMD families whose PEXT/PDEP are microcoded: 0x15 (Excavator), 0x17 (Zen 1, Zen 2), 0x18 (Hygon). */
    static boolean knownSlowBitExtract(CpuInfo cpu) {
        return cpu.isAmd() && cpu.family() >= 0x15 && cpu.family() <= 0x18;
    }

    private static KernelChoice choose(KernelShape shape, CpuInfo cpu, KernelVariant width, boolean pext,
                                       boolean nativePext, boolean byteMasks, boolean lanePopcount,
                                       KernelSettings settings) {
        Optional<Map.Entry<String, KernelVariant>> forced = settings.forced(shape);
        KernelVariant wanted = forced.map(Map.Entry::getValue).orElse(null);
        String why = forced.map(f -> "forced by " + f.getKey() + "=" + f.getValue().setting()).orElse(null);
        return switch (shape) {
            case RANGE_COUNT, GROUPED_SUMS -> {
                KernelVariant v = wanted != null ? wanted : width;
                String how = shape == KernelShape.RANGE_COUNT && v == KernelVariant.VECTOR_512
                        ? (cpu.has("avx512_vpopcntdq") ? "lane popcounts (VPOPCNTQ)" : "per-field counters")
                        : shape == KernelShape.RANGE_COUNT && v == KernelVariant.VECTOR_256 ? "per-field counters"
                        : shape == KernelShape.RANGE_COUNT ? "POPCNT a word"
                        : v == KernelVariant.SCALAR ? "four interleaved sums a group"
                        : "masked adds for up to four groups, at the JVM's vector width";
                yield new KernelChoice(shape, v, false, reason(why, v, width, how));
            }
            case RANGE_SELECT -> {
                KernelVariant v = wanted != null ? wanted : width;
                // At 512 bits PEXT stays wherever it is native, as it was before these forms: no AVX-512 machine
                // was there to compare it with the vector multiply gather. At 256 the gather won even on Zen 3.
                boolean selectPext = switch (v) {
                    case VECTOR_512 -> nativePext;
                    case VECTOR_256 -> false;
                    case SCALAR -> pext;
                };
                String how = switch (v) {
                    case VECTOR_512 -> (byteMasks ? "64-lane byte masks (AVX-512BW) and a PEXT a vector, " : "")
                            + (selectPext ? "PEXT per word (native)" : "multiply gather in vectors");
                    case VECTOR_256 -> "multiply gather in vectors (faster than PEXT on Zen 3 too)";
                    case SCALAR -> selectPext ? "PEXT per word" : "multiply gather per word, no PEXT";
                };
                yield new KernelChoice(shape, v, selectPext, reason(why, v, width, how));
            }
            case VERTICAL_DECODE -> {
                KernelVariant v;
                String how;
                if (wanted != null) {
                    v = wanted;
                    how = "";
                } else if (byteMasks) {
                    v = KernelVariant.VECTOR_512;
                    how = "64-lane byte masks (AVX-512BW)";
                } else {
                    v = width == KernelVariant.SCALAR ? KernelVariant.SCALAR : KernelVariant.VECTOR_256;
                    how = v == KernelVariant.SCALAR ? "no vectors" : "32-lane byte masks, two a plane word";
                }
                String bits = v == KernelVariant.SCALAR ? (pext ? "PDEP per plane byte" : "table per plane byte")
                        : "span ends " + (pext ? "with PDEP" : "with a table");
                yield new KernelChoice(shape, v, pext,
                        reason(why, v, width, join(how, bits)));
            }
            case HORIZONTAL_DECODE, GATHER_LOOKUP -> new KernelChoice(shape, KernelVariant.SCALAR, false,
                    reason(why, KernelVariant.SCALAR, width, "scalar is its only form"
                            + (shape == KernelShape.HORIZONTAL_DECODE ? " (shifts and masks, width-specialized)"
                                    : "")));
        };
    }

    private static String join(String a, String b) {
        return a.isEmpty() ? b : b.isEmpty() ? a : a + "; " + b;
    }

    private static String reason(String forced, KernelVariant v, KernelVariant width, String how) {
        String emulated = v.compareTo(width) < 0 ? "; not native here: emulated, slow" : "";
        return (forced != null ? forced + "; " : "") + how + emulated;
    }

    public KernelChoice choice(KernelShape shape) {
        return choices.get(shape);
    }

    /** The CPU, the facts that decided, and each shape's form, as {@code ./locus cpu} prints them. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        b.append("cpu: ").append(cpu).append('\n');
        b.append("flags: ");
        for (String flag : new String[] {"avx2", "bmi2", "avx512f", "avx512bw", "avx512_vpopcntdq"}) {
            b.append(flag).append(cpu.has(flag) ? "+ " : "- ");
        }
        b.append('\n');
        b.append("vectors: ").append(width.setting()).append(" (").append(widthReason).append(")\n");
        b.append("pext/pdep: ").append(pext ? "used" : "not used").append(" (").append(pextReason).append(")\n");
        for (KernelShape shape : KernelShape.values()) {
            KernelChoice c = choices.get(shape);
            b.append(String.format(Locale.ROOT, "  %-18s %-7s %s%n", shape.setting(), c.variant().setting(),
                    c.reason()));
        }
        return b.toString();
    }
}
