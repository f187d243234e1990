package io.locusdb.bench.sim;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a simulated run produced: per second, the queries each client group completed and each node's threads and
 * memory throughput; the placer's events; the policy that ran.
 *
 * @param completions   [second][client group] queries completed in that second
 * @param busyThreads   [second][node] average threads running tasks (local or stolen)
 * @param ownThreads    [second][node] the node's utilization as the placer sees it (tasks on their own data)
 * @param memoryGBs     [second][node] bytes read from the node's memory per second, in GB/s
 * @param imbalance     [second] the largest difference of two nodes' own threads
 * @param stolenShare   share of all tasks that ran on another node than their data's
 * @param remoteShare   share of all bytes read that came from another node's memory
 * @param allocatedCores [second] cores the elastic allocation held on average (all of them without it)
 * @param classThroughput each task class's learnt average memory throughput at the end (bytes per second)
 * @param finalLayout   each table's parts at the end, as the node of every part (empty where not known)
 */
public record SimResult(String label, MachineModel machine, Scenario scenario, double[][] completions,
                        double[][] busyThreads, double[][] ownThreads, double[][] memoryGBs, double[] imbalance,
                        List<SimEvent> events, double stolenShare, double remoteShare, double[] allocatedCores,
                        Map<String, Double> classThroughput, double wallSeconds,
                        Map<String, List<Integer>> finalLayout) {

    public SimResult {
        finalLayout = Map.copyOf(finalLayout);
    }

    /** The tables in more than one part with their parts and nodes, then how many tables are in one part. */
    public String layoutLine() {
        StringBuilder out = new StringBuilder();
        int whole = 0;
        for (Scenario.TableSpec t : scenario.tables()) {
            List<Integer> nodes = finalLayout.get(t.name());
            if (nodes == null) {
                continue;
            }
            if (nodes.size() == 1) {
                whole++;
                continue;
            }
            out.append(out.isEmpty() ? "" : "; ").append(t.name()).append(' ').append(nodes.size())
                    .append(" parts on ").append(nodes.stream().distinct().count()).append(" nodes");
        }
        if (whole > 0) {
            out.append(out.isEmpty() ? "" : "; ").append(whole).append(whole == 1 ? " table" : " tables")
                    .append(" in one part");
        }
        return out.toString();
    }

    public int seconds() {
        return completions.length;
    }

    /** Queries of all groups completed in second {@code s}. */
    public double completedIn(int s) {
        double sum = 0;
        for (double v : completions[s]) {
            sum += v;
        }
        return sum;
    }

    /** Queries per second averaged over {@code [from, to)} seconds. */
    public double throughput(double from, double to) {
        int a = Math.max(0, (int) Math.floor(from));
        int b = Math.min(seconds(), (int) Math.ceil(to));
        if (b <= a) {
            return 0;
        }
        double sum = 0;
        for (int s = a; s < b; s++) {
            sum += completedIn(s);
        }
        return sum / (b - a);
    }

    /** The paper's timeline value: the slope of completed queries over the {@code window} seconds before {@code s}. */
    public double slope(int s, double window) {
        return throughput(s + 1 - window, s + 1);
    }

    /** The learnt memory throughput of each task class, in MB/s, as {@code " name value"} items. */
    public String classesLine() {
        StringBuilder b = new StringBuilder();
        classThroughput.forEach((name, bps) -> b.append(String.format(Locale.ROOT, " %s %.0f", name, bps / 1e6)));
        return b.toString();
    }

    public double totalMemoryGBs(int s) {
        double sum = 0;
        for (double v : memoryGBs[s]) {
            sum += v;
        }
        return sum;
    }
}
