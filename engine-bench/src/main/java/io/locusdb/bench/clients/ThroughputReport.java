package io.locusdb.bench.clients;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** What a {@link ThroughputRun} measured: throughput, latency percentiles per query and overall, and failures. */
public record ThroughputReport(int clients, Duration measured, Map<String, Histogram> latencies, Histogram all,
                               long rows, long errors, long wrongAnswers, int connectFailures, int idleClients,
                               List<String> failures) {

    static ThroughputReport of(int clients, Duration measured, List<MixQuery> mix,
                               List<ThroughputRun.ClientStats> stats, int connectFailures, List<String> failures) {
        Map<String, Histogram> byQuery = ThroughputRun.byQuery(mix, stats);
        Histogram all = new Histogram(byQuery.values().iterator().next().getHighestTrackableValue(), 3);
        byQuery.values().forEach(all::add);
        long rows = 0;
        long errors = 0;
        long wrong = 0;
        int idle = 0;
        for (ThroughputRun.ClientStats s : stats) {
            idle += s.queries == 0 ? 1 : 0;
            rows += s.rows;
            errors += s.errors;
            wrong += s.wrongAnswers;
        }
        return new ThroughputReport(clients, measured, byQuery, all, rows, errors, wrong, connectFailures, idle,
                failures);
    }

    public long queries() {
        return all.getTotalCount();
    }

    public double queriesPerSecond() {
        return all.getTotalCount() / (measured.toNanos() / 1e9);
    }

    public boolean clean() {
        return errors == 0 && wrongAnswers == 0 && connectFailures == 0 && failures.isEmpty();
    }

    /** A table: per query and in all, count, q/s, p50, p99, p99.9 and max latency in milliseconds. */
    public String format() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%d clients, %.1f s measured: %d queries, %.1f queries/s, %d rows,"
                        + " %d errors, %d wrong answers, %d clients without a measured query%n", clients,
                measured.toNanos() / 1e9, queries(), queriesPerSecond(), rows, errors, wrongAnswers, idleClients));
        out.append(String.format(Locale.ROOT, "%-14s %9s %9s %9s %9s %9s %9s%n", "query", "count", "q/s", "p50 ms",
                "p99 ms", "p99.9 ms", "max ms"));
        latencies.forEach((name, h) -> out.append(line(name, h)));
        out.append(line("all", all));
        for (String f : failures) {
            out.append("  failure: ").append(f).append('\n');
        }
        return out.toString();
    }

    private String line(String name, Histogram h) {
        return String.format(Locale.ROOT, "%-14s %9d %9.1f %9.2f %9.2f %9.2f %9.2f%n", name, h.getTotalCount(),
                h.getTotalCount() / (measured.toNanos() / 1e9), ms(h, 50), ms(h, 99), ms(h, 99.9),
                h.getTotalCount() == 0 ? 0 : h.getMaxValue() / 1000.0);
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1000.0;
    }
}
