package io.locusdb.bench.sim;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.IntToDoubleFunction;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * A simulated run as a PNG, like the paper's timelines: throughput (slope over the window), imbalance, each node's
 * threads in use on its own data and its memory throughput, the placer's events as markers.
 */
public final class SimulationChart {
    private SimulationChart() {
    }

    public static void timeline(Path png, SimResult r) throws IOException {
        int nodes = r.machine().nodes();
        XYSeriesCollection tp = new XYSeriesCollection();
        tp.addSeries(series("queries/s (slope over " + (int) r.scenario().windowSeconds() + " s)", r.seconds(),
                s -> r.slope(s, r.scenario().windowSeconds())));
        XYSeriesCollection imbalance = new XYSeriesCollection();
        imbalance.addSeries(series("imbalance (threads)", r.seconds(), s -> r.imbalance()[s]));
        XYSeriesCollection own = new XYSeriesCollection();
        XYSeriesCollection memory = new XYSeriesCollection();
        for (int n = 0; n < nodes && n < 32; n++) {
            int node = n;
            own.addSeries(series("node " + n + " threads", r.seconds(), s -> r.ownThreads()[s][node]));
            memory.addSeries(series("node " + n + " GB/s", r.seconds(), s -> r.memoryGBs()[s][node]));
        }
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(new NumberAxis("seconds"));
        List<XYPlot> plots = List.of(new XYPlot(tp, null, new NumberAxis("queries/s"), renderer()),
                new XYPlot(imbalance, null, new NumberAxis("imbalance"), renderer()),
                new XYPlot(own, null, new NumberAxis("own threads"), renderer()),
                new XYPlot(memory, null, new NumberAxis("memory GB/s"), renderer()));
        for (XYPlot p : plots) {
            for (SimEvent e : r.events()) {
                ValueMarker marker = new ValueMarker(e.doneSeconds(), Color.RED, new BasicStroke(1f));
                if (p == plots.getFirst()) {
                    marker.setLabel(String.format(Locale.ROOT, "%s %s→%d", e.action(), e.owner(), e.toNode()));
                    marker.setLabelAnchor(RectangleAnchor.BOTTOM_RIGHT);
                    marker.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
                }
                p.addDomainMarker(marker);
            }
            plot.add(p, p == plots.getFirst() ? 2 : 1);
        }
        JFreeChart chart = new JFreeChart(r.scenario().name() + " on " + r.machine().name() + ": " + r.label(),
                JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 1200, 1000);
    }

    /** A sweep as a PNG: average throughput per setting, one line per stealing policy. */
    public static void sweep(Path png, Reproduction.Outcome outcome) throws IOException {
        XYSeriesCollection lines = new XYSeriesCollection();
        for (String policy : outcome.runs().stream().map(Reproduction.Run::stealing).distinct().toList()) {
            XYSeries s = new XYSeries("stealing " + policy);
            for (Reproduction.Run run : outcome.runs()) {
                if (run.stealing().equals(policy) && run.selectivity() != null) {
                    s.add(Math.log10(Double.parseDouble(run.selectivity()) * 100),
                            Reproduction.average(outcome.runs(), run.selectivity(), policy));
                }
            }
            lines.addSeries(s);
        }
        XYPlot plot = new XYPlot(lines, new NumberAxis("log10(selectivity in %)"), new NumberAxis("queries/s"),
                new XYLineAndShapeRenderer(true, true));
        JFreeChart chart = new JFreeChart(outcome.scenario().name() + " on " + outcome.machine().name(),
                JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 1000, 600);
    }

    private static XYSeries series(String name, int seconds, IntToDoubleFunction value) {
        XYSeries s = new XYSeries(name);
        for (int i = 0; i < seconds; i++) {
            s.add(i + 1, value.applyAsDouble(i));
        }
        return s;
    }

    private static XYLineAndShapeRenderer renderer() {
        return new XYLineAndShapeRenderer(true, false);
    }
}
