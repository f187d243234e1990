package io.locusdb.bench.sim;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The CSV files of a simulated run: its timeline (one row a second) and its placer events. */
public final class SimulationCsv {
    private SimulationCsv() {
    }

    public static void timeline(Path file, SimResult r) throws IOException {
        int nodes = r.machine().nodes();
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            StringBuilder header = new StringBuilder("second,throughput_slope,completed,imbalance,allocated_cores");
            for (int n = 0; n < nodes; n++) {
                header.append(",node").append(n).append("_busy_threads");
            }
            for (int n = 0; n < nodes; n++) {
                header.append(",node").append(n).append("_own_threads");
            }
            for (int n = 0; n < nodes; n++) {
                header.append(",node").append(n).append("_memory_gbs");
            }
            out.println(header);
            for (int s = 0; s < r.seconds(); s++) {
                StringBuilder row = new StringBuilder();
                row.append(s + 1).append(',').append(format(r.slope(s, r.scenario().windowSeconds()))).append(',')
                        .append(format(r.completedIn(s))).append(',').append(format(r.imbalance()[s])).append(',')
                        .append(format(r.allocatedCores()[s]));
                for (int n = 0; n < nodes; n++) {
                    row.append(',').append(format(r.busyThreads()[s][n]));
                }
                for (int n = 0; n < nodes; n++) {
                    row.append(',').append(format(r.ownThreads()[s][n]));
                }
                for (int n = 0; n < nodes; n++) {
                    row.append(',').append(format(r.memoryGBs()[s][n]));
                }
                out.println(row);
            }
        }
    }

    public static void events(Path file, SimResult r) throws IOException {
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            out.println("decided_s,started_s,done_s,action,table,parts_before,parts_after,from_node,to_node,reason");
            for (SimEvent e : r.events()) {
                out.printf(Locale.ROOT, "%.1f,%.1f,%.1f,%s,%s,%d,%d,%d,%d,\"%s\"%n", e.decidedSeconds(),
                        e.startSeconds(), e.doneSeconds(), e.action(), e.owner(), e.partsBefore(), e.partsAfter(),
                        e.fromNode(), e.toNode(), e.reason().replace("\"", "'"));
            }
        }
    }

    private static String format(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
