package io.locusdb.natives.guest;

import io.locusdb.natives.topology.CpuSet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The parts of {@code numactl --hardware} output the guest tests compare against. */
record NumactlHardware(TreeMap<Integer, CpuSet> cpusByNode, int[][] distances) {
    private static final Pattern CPUS = Pattern.compile("^node (\\d+) cpus:(.*)$");

    static NumactlHardware run() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("numactl", "--hardware").redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("numactl --hardware failed:\n" + output);
        }
        return parse(output);
    }

    static NumactlHardware parse(String output) {
        TreeMap<Integer, CpuSet> cpus = new TreeMap<>();
        List<int[]> rows = new ArrayList<>();
        boolean inDistances = false;
        for (String line : output.split("\n")) {
            Matcher m = CPUS.matcher(line.trim());
            if (m.matches()) {
                int[] ids = Arrays.stream(m.group(2).trim().split("\\s+")).filter(s -> !s.isEmpty())
                        .mapToInt(Integer::parseInt).toArray();
                cpus.put(Integer.parseInt(m.group(1)), CpuSet.of(ids));
            } else if (line.startsWith("node distances:")) {
                inDistances = true;
            } else if (inDistances && line.trim().matches("\\d+:.*")) {
                String values = line.substring(line.indexOf(':') + 1).trim();
                rows.add(Arrays.stream(values.split("\\s+")).mapToInt(Integer::parseInt).toArray());
            }
        }
        return new NumactlHardware(cpus, rows.toArray(int[][]::new));
    }
}
