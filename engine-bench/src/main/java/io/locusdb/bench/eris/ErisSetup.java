package io.locusdb.bench.eris;

import io.locusdb.core.eris.ErisRuntime;
import io.locusdb.natives.thread.ThreadPinning;
import io.locusdb.natives.topology.Topologies;
import io.locusdb.natives.topology.Topology;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** What the ERIS benchmarks share: one AEU per CPU of the topology, pinned to it; charts. */
final class ErisSetup {
    private ErisSetup() {
    }

    static Topology topology(String setting) {
        if (setting != null) {
            System.setProperty("locus.topology", setting);
        }
        return Topologies.fromEnvironment();
    }

    /** An ERIS runtime with one AEU per CPU of {@code topology}, each pinned to its CPU. */
    static ErisRuntime runtime(Topology topology, long keys) {
        List<Integer> cpus = new ArrayList<>();
        topology.cpus().stream().forEach(cpus::add);
        int[] nodes = new int[cpus.size()];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = topology.nodeOfCpu(cpus.get(i));
        }
        ThreadPinning pinning = new ThreadPinning(topology);
        return new ErisRuntime(nodes, keys, 4096, aeu -> pinning.pinCurrentThreadToCpu(cpus.get(aeu)));
    }

    static String describe(Topology topology) {
        return String.format(Locale.ROOT, "%d AEUs (one per CPU, pinned) on %d node(s), %s", topology.cpuCount(),
                topology.nodeCount(), topology.kind().label());
    }

    /** A line chart: one series per name, x and y per point. */
    static void chart(Path png, String title, String x, String y, Map<String, double[][]> lines) throws IOException {
        XYSeriesCollection data = new XYSeriesCollection();
        for (var e : lines.entrySet()) {
            XYSeries s = new XYSeries(e.getKey());
            for (double[] p : e.getValue()) {
                s.add(p[0], p[1]);
            }
            data.addSeries(s);
        }
        XYPlot plot = new XYPlot(data, new NumberAxis(x), new NumberAxis(y), new XYLineAndShapeRenderer(true, false));
        JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 1100, 600);
    }

    static String check(String name, double measured, double target) {
        return String.format(Locale.ROOT, "check %s measured=%.3f target=%.3f %s", name, measured, target,
                measured >= target ? "ok" : "off");
    }
}
