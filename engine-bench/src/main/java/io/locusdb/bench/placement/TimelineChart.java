package io.locusdb.bench.placement;

import io.locusdb.core.placer.PlacerEvent;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
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
 * The demonstration's timeline as a PNG: throughput of both runs on top, each node's thread utilization of the
 * placer-on run below, placer events as vertical markers on both.
 */
final class TimelineChart {
    private TimelineChart() {
    }

    static void write(Path png, String title, PlacementRun.Result on, PlacementRun.Result off,
                      double enableAtSeconds, int nodes) throws IOException {
        XYSeriesCollection throughput = new XYSeriesCollection();
        throughput.addSeries(series("placer on", on, s -> s.queriesPerSecond()));
        throughput.addSeries(series("placer off", off, s -> s.queriesPerSecond()));
        XYPlot top = new XYPlot(throughput, null, new NumberAxis("queries/s"), renderer());

        XYSeriesCollection threads = new XYSeriesCollection();
        for (int n = 0; n < nodes; n++) {
            int node = n;
            threads.addSeries(series("node " + n + " threads (placer on)", on, s -> s.nodeThreads()[node]));
        }
        XYPlot bottom = new XYPlot(threads, null, new NumberAxis("threads in use"), renderer());

        for (XYPlot plot : List.of(top, bottom)) {
            ValueMarker enable = new ValueMarker(enableAtSeconds, Color.GRAY, new BasicStroke(1f, BasicStroke.CAP_BUTT,
                    BasicStroke.JOIN_MITER, 1f, new float[] {4f, 4f}, 0f));
            if (plot == top) {
                enable.setLabel("placer switched on");
                enable.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
                enable.setLabelTextAnchor(TextAnchor.TOP_LEFT);
            }
            plot.addDomainMarker(enable);
            for (PlacerEvent e : on.events()) {
                ValueMarker marker = new ValueMarker(on.eventSeconds(e), Color.RED, new BasicStroke(1.5f));
                if (plot == top) {
                    marker.setLabel(String.format(Locale.ROOT, "%s %s→%d", e.action().label(), e.owner(),
                            e.toNode()));
                    marker.setLabelAnchor(RectangleAnchor.BOTTOM_RIGHT);
                    marker.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
                }
                plot.addDomainMarker(marker);
            }
        }
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(new NumberAxis("seconds"));
        plot.add(top, 2);
        plot.add(bottom, 1);
        JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 1100, 700);
    }

    private interface Value {
        double of(PlacementRun.Sample sample);
    }

    private static XYSeries series(String name, PlacementRun.Result result, Value value) {
        XYSeries series = new XYSeries(name);
        for (PlacementRun.Sample s : result.samples()) {
            series.add(s.seconds(), value.of(s));
        }
        return series;
    }

    private static XYLineAndShapeRenderer renderer() {
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        for (int i = 0; i < 4; i++) {
            renderer.setSeriesStroke(i, new BasicStroke(1.5f));
        }
        return renderer;
    }
}
