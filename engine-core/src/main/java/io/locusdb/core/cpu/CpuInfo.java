package io.locusdb.core.cpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The CPU as the kernel describes it in {@code /proc/cpuinfo} (LocusDB runs on Linux): vendor, family and model,
 * which identify CPUs whose instructions exist but are slow, and the flags, which say what exists at all. An
 * unreadable or foreign file gives an unknown CPU with no flags, on which every kernel falls back to a form that
 * is correct everywhere.
 */
public record CpuInfo(String vendor, int family, int model, String modelName, Set<String> flags) {

    public static final CpuInfo UNKNOWN = new CpuInfo("unknown", -1, -1, "unknown", Set.of());

    public CpuInfo {
        flags = Set.copyOf(flags);
    }

    public static CpuInfo read(Path cpuinfo) {
        try {
            return parse(Files.readAllLines(cpuinfo));
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    public static CpuInfo current() {
        return read(Path.of("/proc/cpuinfo"));
    }

    /** The first processor's block of a {@code /proc/cpuinfo} listing. */
    static CpuInfo parse(List<String> lines) {
        String vendor = UNKNOWN.vendor();
        int family = -1;
        int model = -1;
        String modelName = UNKNOWN.modelName();
        Set<String> flags = Set.of();
        for (String line : lines) {
            if (line.isBlank() && !flags.isEmpty()) {
                break;
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim();
            switch (key) {
                case "vendor_id" -> vendor = value;
                case "cpu family" -> family = parseInt(value);
                case "model" -> model = parseInt(value);
                case "model name" -> modelName = value;
                case "flags" -> flags = Arrays.stream(value.split("\\s+")).filter(f -> !f.isEmpty())
                        .collect(Collectors.toUnmodifiableSet());
                default -> {
                }
            }
        }
        return new CpuInfo(vendor, family, model, modelName, flags);
    }

    private static int parseInt(String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    public boolean has(String flag) {
        return flags.contains(flag);
    }

    public boolean isAmd() {
        return vendor.equals("AuthenticAMD") || vendor.equals("HygonGenuine");
    }

    /** Vendor, family, model and name: what a cached measurement is valid for. */
    public String key() {
        return (vendor + "-" + family + "-" + model + "-" + modelName).replaceAll("[^A-Za-z0-9._-]+", "_");
    }

    @Override
    public String toString() {
        return modelName + " (" + vendor + ", family " + family + ", model " + model + ")";
    }
}
