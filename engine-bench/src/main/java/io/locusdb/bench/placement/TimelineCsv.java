package io.locusdb.bench.placement;

import io.locusdb.core.placer.PlacerEvent;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The timeline as CSV: one row per sample of either run ({@code run, seconds, queries_per_s, node<i>_threads,
 * node_of_a, node_of_b, event}), the event column naming a placer event that ended within that sample.
 */
final class TimelineCsv {
    private TimelineCsv() {
    }

    static void write(Path file, PlacementRun.Result on, PlacementRun.Result off, int nodes) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("run,seconds,queries_per_s");
            for (int n = 0; n < nodes; n++) {
                w.write(",node" + n + "_threads");
            }
            for (String table : on.tables()) {
                w.write(",node_of_" + table);
            }
            w.write(",event\n");
            for (PlacementRun.Result r : new PlacementRun.Result[] {on, off}) {
                double previous = 0;
                for (PlacementRun.Sample s : r.samples()) {
                    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s,%.3f,%.1f",
                            r.placer() ? "placer-on" : "placer-off", s.seconds(), s.queriesPerSecond()));
                    for (double threads : s.nodeThreads()) {
                        line.append(String.format(Locale.ROOT, ",%.3f", threads));
                    }
                    for (int node : s.tableNodes()) {
                        line.append(',').append(node);
                    }
                    StringBuilder events = new StringBuilder();
                    for (PlacerEvent e : r.events()) {
                        double at = r.eventSeconds(e);
                        if (e.source().equals(PlacerEvent.PLACER) && at > previous && at <= s.seconds()) {
                            events.append(events.isEmpty() ? "" : "; ").append(e.action().label()).append(' ')
                                    .append(e.owner()).append(" to node ").append(e.toNode());
                        }
                    }
                    line.append(',').append(events.isEmpty() ? "" : '"' + events.toString() + '"').append('\n');
                    w.write(line.toString());
                    previous = s.seconds();
                }
            }
        }
    }
}
