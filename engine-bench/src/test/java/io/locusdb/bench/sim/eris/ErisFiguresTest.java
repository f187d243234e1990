package io.locusdb.bench.sim.eris;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.eris.BalancingPolicy;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ERIS figures' models: the mechanisms they stand on hold (a partitioned index keeps more of its levels in
 * cache; ERIS's advantage grows with the index and the machine; interleaving loses to local scans on a big machine;
 * balancing beats none when the hot range moves), and each figure writes its CSV, PNG and check lines.
 */
class ErisFiguresTest {
    @TempDir
    Path dir;

    @Test
    void aTreeOfFewerKeysKeepsMoreOfItsLevelsInCache() {
        double cache = 6 * 1024 * 1024;
        assertThat(IndexModel.misses(1e9 / 8, cache)[1]).isLessThan(IndexModel.misses(1e9, cache)[1]);
        double[] tiny = IndexModel.misses(1000, cache);
        assertThat(tiny[1]).isZero();
        assertThat(tiny[0]).isEqualTo(2);
    }

    @Test
    void erisGainsWithTheIndexAndTheMachine() {
        IndexModel.Throughput small = IndexModel.throughput(ErisMachine.amd(), 16e6);
        IndexModel.Throughput large = IndexModel.throughput(ErisMachine.amd(), 2e9);
        assertThat(large.erisLookups() / large.sharedLookups())
                .isGreaterThan(small.erisLookups() / small.sharedLookups());
        IndexModel.Throughput sgi = IndexModel.throughput(ErisMachine.sgi(), 2e9);
        assertThat(sgi.erisLookups() / sgi.sharedLookups()).isGreaterThan(large.erisLookups() / large.sharedLookups());
        double[] scan = ScanModel.bandwidth(ErisMachine.sgi());
        assertThat(scan[2]).isGreaterThan(scan[1]).isGreaterThan(scan[0]);
    }

    @Test
    void balancingBeatsNoBalancerWhenTheHotRangeMoves() {
        long keys = 512L << 20;
        double none = average(BalanceSimulation.run(ErisMachine.amd(), keys, null));
        double oneShot = average(BalanceSimulation.run(ErisMachine.amd(), keys,
                BalancingPolicy.oneShot()));
        assertThat(oneShot).isGreaterThan(none);
    }

    @Test
    void everyFigureWritesItsFilesAndChecks() throws Exception {
        for (String figure : new String[] {"eris-fig8", "eris-fig9", "eris-fig13"}) {
            StringWriter text = new StringWriter();
            ErisFigures.run(figure, dir, new PrintWriter(text, true));
            assertThat(text.toString()).contains("check " + figure + ".");
            assertThat(dir.resolve(figure + ".csv")).exists();
        }
        assertThat(dir.resolve("eris-fig13.png")).exists();
        assertThat(dir.resolve("eris-fig8-64-nodes.png")).exists();
    }

    private static double average(BalanceSimulation.Result r) {
        double sum = 0;
        for (double t : r.throughput()) {
            sum += t;
        }
        return sum / r.throughput().length;
    }
}
