package io.locusdb.bench.sim.eris;

import io.locusdb.core.eris.BalancingPolicy;
import java.awt.Color;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * {@code ./locus simulate eris-fig8|eris-fig9|eris-fig13}: the ERIS paper's figures on its three machines from the
 * models of this package, each with CSV, PNG and {@code check NAME measured=X paper=Y ok|off} lines.
 */
public final class ErisFigures {
    private static final double GB = 1e9;

    private ErisFigures() {
    }

    public static boolean handles(String scenario) {
        return scenario.startsWith("eris-");
    }

    public static void run(String scenario, Path out, PrintWriter console) throws IOException {
        Files.createDirectories(out);
        switch (scenario) {
            case "eris-fig8" -> figure8(out, console);
            case "eris-fig9" -> figure9(out, console);
            case "eris-fig13" -> figure13(out, console);
            default -> throw new IllegalArgumentException("unknown ERIS figure '" + scenario
                    + "' (eris-fig8, eris-fig9, eris-fig13)");
        }
        console.println("wrote " + out.toAbsolutePath());
    }

    private static void figure8(Path out, PrintWriter console) throws IOException {
        List<String> checks = new ArrayList<>();
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve("eris-fig8.csv")))) {
            csv.println("machine,keys,shared_lookups,eris_lookups,shared_upserts,eris_upserts");
            for (ErisMachine m : List.of(ErisMachine.intel(), ErisMachine.amd(), ErisMachine.sgi())) {
                double largest = m.nodes() == 64 ? 32e9 : 2e9;
                Map<String, double[][]> lines = new LinkedHashMap<>();
                List<double[]> shared = new ArrayList<>();
                List<double[]> eris = new ArrayList<>();
                List<double[]> sharedUp = new ArrayList<>();
                List<double[]> erisUp = new ArrayList<>();
                console.println("Figure 8 on " + m.name() + " (" + m.cores() + " cores): lookups and upserts per"
                        + " second");
                for (double keys = 16e6; keys <= largest * 1.01; keys *= 2) {
                    IndexModel.Throughput t = IndexModel.throughput(m, keys);
                    csv.printf(Locale.ROOT, "%s,%.0f,%.0f,%.0f,%.0f,%.0f%n", m.name(), keys, t.sharedLookups(),
                            t.erisLookups(), t.sharedUpserts(), t.erisUpserts());
                    console.printf(Locale.ROOT, "  %6.0fM keys: shared index %7.1f M lookups/s %7.1f M upserts/s,"
                                    + " ERIS %7.1f M lookups/s %7.1f M upserts/s (ERIS/shared %.2f)%n", keys / 1e6,
                            t.sharedLookups() / 1e6, t.sharedUpserts() / 1e6, t.erisLookups() / 1e6,
                            t.erisUpserts() / 1e6, t.erisLookups() / t.sharedLookups());
                    shared.add(new double[] {keys, t.sharedLookups() / 1e6});
                    eris.add(new double[] {keys, t.erisLookups() / 1e6});
                    sharedUp.add(new double[] {keys, t.sharedUpserts() / 1e6});
                    erisUp.add(new double[] {keys, t.erisUpserts() / 1e6});
                }
                lines.put("shared index lookups", shared.toArray(double[][]::new));
                lines.put("ERIS lookups", eris.toArray(double[][]::new));
                lines.put("shared index upserts", sharedUp.toArray(double[][]::new));
                lines.put("ERIS upserts", erisUp.toArray(double[][]::new));
                chart(out.resolve("eris-fig8-" + m.nodes() + "-nodes.png"), "Figure 8: " + m.name(), "keys",
                        "million operations/s", lines, true);
            }
            IndexModel.Throughput small = IndexModel.throughput(ErisMachine.intel(), 16e6);
            checks.add(qualitative("eris-fig8.intel-16M-shared-ahead", small.sharedLookups() / small.erisLookups(),
                    "the shared index ahead on the small machine with a small index"));
            IndexModel.Throughput amd = IndexModel.throughput(ErisMachine.amd(), 1.024e9);
            checks.add(paper("eris-fig8.amd-1B-lookups", amd.erisLookups() / amd.sharedLookups(), 1.6));
            IndexModel.Throughput sgi = IndexModel.throughput(ErisMachine.sgi(), 16.384e9);
            checks.add(paper("eris-fig8.sgi-16B-lookups", sgi.erisLookups() / sgi.sharedLookups(), 3.5));
        }
        checks.forEach(console::println);
    }

    private static void figure9(Path out, PrintWriter console) throws IOException {
        List<String> checks = new ArrayList<>();
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve("eris-fig9.csv")))) {
            csv.println("machine,single_node_gbs,interleaved_gbs,eris_gbs");
            for (ErisMachine m : List.of(ErisMachine.intel(), ErisMachine.amd(), ErisMachine.sgi())) {
                double[] b = ScanModel.bandwidth(m);
                csv.printf(Locale.ROOT, "%s,%.1f,%.1f,%.1f%n", m.name(), b[0] / GB, b[1] / GB, b[2] / GB);
                console.printf(Locale.ROOT, "Figure 9 on %s: scan bandwidth, memory on one node %.1f GB/s,"
                        + " interleaved %.1f GB/s, ERIS %.1f GB/s (ERIS/interleaved %.2f)%n", m.name(), b[0] / GB,
                        b[1] / GB, b[2] / GB, b[2] / b[1]);
                if (m.nodes() == 64) {
                    checks.add(paper("eris-fig9.sgi-eris-vs-interleaved", b[2] / b[1], 6.6));
                    Map<String, double[][]> bars = new LinkedHashMap<>();
                    bars.put("GB/s", new double[][] {{1, b[0] / GB}, {2, b[1] / GB}, {3, b[2] / GB}});
                    chart(out.resolve("eris-fig9.png"), "Figure 9 on " + m.name() + ": 1 single node, 2"
                            + " interleaved, 3 ERIS", "allocation", "scan GB/s", bars, false);
                }
            }
        }
        checks.forEach(console::println);
    }

    private static void figure13(Path out, PrintWriter console) throws IOException {
        ErisMachine m = ErisMachine.amd();
        long keys = 512L << 20;
        List<BalanceSimulation.Result> results = new ArrayList<>();
        results.add(BalanceSimulation.run(m, keys, null));
        results.add(BalanceSimulation.run(m, keys, BalancingPolicy.oneShot()));
        results.add(BalanceSimulation.run(m, keys, BalancingPolicy.movingAverage(1)));
        results.add(BalanceSimulation.run(m, keys, BalancingPolicy.movingAverage(8)));
        Map<String, double[][]> lines = new LinkedHashMap<>();
        Map<String, Double> average = new LinkedHashMap<>();
        Map<String, double[]> dropAndRecovery = new LinkedHashMap<>();
        double[] reference = BalanceSimulation.references(results);
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve("eris-fig13.csv")))) {
            csv.println("policy,seconds,lookups_per_second");
            console.println("Figure 13 on " + m.name() + ": " + m.cores() + " AEUs, 512M keys; lookups over all keys"
                    + " for 10 s, then the middle half, shifted left by 8M keys every 20 s");
            for (BalanceSimulation.Result r : results) {
                double[][] points = new double[r.seconds().length][];
                double sum = 0;
                for (int s = 0; s < points.length; s++) {
                    points[s] = new double[] {r.seconds()[s], r.throughput()[s] / 1e6};
                    sum += r.throughput()[s];
                    csv.printf(Locale.ROOT, "%s,%.1f,%.0f%n", r.policy(), r.seconds()[s], r.throughput()[s]);
                }
                lines.put(r.policy(), points);
                average.put(r.policy(), sum / points.length);
                // The first change (all keys to half of them) is the big one; the four shifts are averaged.
                List<double[]> drops = BalanceSimulation.drops(r, reference);
                double depth = 0;
                double recovery = 0;
                for (double[] d : drops.subList(1, drops.size())) {
                    depth += d[0] / (drops.size() - 1);
                    recovery += d[1] / (drops.size() - 1);
                }
                dropAndRecovery.put(r.policy(), new double[] {depth, recovery});
                console.printf(Locale.ROOT, "  %-9s average %6.1f M lookups/s, %d balancings; after a shift: lowest"
                        + " %.0f %% below the best run, at 95 %% of it after %.1f s%n", r.policy(), sum / points.length / 1e6,
                        r.balancings(), 100 * depth, recovery);
            }
        }
        chart(out.resolve("eris-fig13.png"), "Figure 13 on " + m.name(), "seconds", "million lookups/s", lines,
                false);
        double[] oneShot = dropAndRecovery.get("one-shot");
        double[] ma1 = dropAndRecovery.get("ma1");
        double[] ma8 = dropAndRecovery.get("ma8");
        console.println(qualitative("eris-fig13.one-shot-deepest-drop", oneShot[0] / Math.max(ma1[0], ma8[0]),
                "One-Shot's drop deeper than MA1's and MA8's"));
        console.println(qualitative("eris-fig13.one-shot-fastest-recovery",
                Math.min(ma1[1], ma8[1]) / Math.max(oneShot[1], 1e-9), "One-Shot back first"));
        console.println(qualitative("eris-fig13.ma8-best-overall", average.get("ma8")
                / Math.max(average.get("one-shot"), average.get("ma1")), "MA8 the best average"));
        console.println(qualitative("eris-fig13.balancing-vs-none", Math.max(average.get("ma8"),
                Math.max(average.get("one-shot"), average.get("ma1"))) / average.get("none"),
                "balancing ahead of no balancer"));
    }

    /** A ratio the paper states: ok within ±20 %. */
    private static String paper(String name, double measured, double paper) {
        boolean ok = Math.abs(measured - paper) <= 0.2 * paper;
        return String.format(Locale.ROOT, "check %s measured=%.3f paper=%.3f %s", name, measured, paper,
                ok ? "ok" : "off");
    }

    /** A claim the paper makes without a number: ok when the ratio is above 1. */
    private static String qualitative(String name, double measured, String claim) {
        return String.format(Locale.ROOT, "check %s measured=%.3f paper=>1 %s (%s)", name, measured,
                measured > 1 ? "ok" : "off", claim);
    }

    private static void chart(Path png, String title, String x, String y, Map<String, double[][]> lines,
                              boolean logX) throws IOException {
        XYSeriesCollection data = new XYSeriesCollection();
        for (Map.Entry<String, double[][]> e : lines.entrySet()) {
            XYSeries s = new XYSeries(e.getKey());
            for (double[] p : e.getValue()) {
                s.add(p[0], p[1]);
            }
            data.addSeries(s);
        }
        XYPlot plot = new XYPlot(data, logX ? new LogAxis(x) : new NumberAxis(x), new NumberAxis(y),
                new XYLineAndShapeRenderer(true, logX));
        JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 1100, 600);
    }
}
