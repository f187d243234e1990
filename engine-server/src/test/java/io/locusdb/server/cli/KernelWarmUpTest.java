package io.locusdb.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.workload.TpchQuery;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The background warm-up runs every TPC-H query on a database of its own and says so when it is done. */
class KernelWarmUpTest {
    @Test
    void aRoundRunsEveryTpchQueryOnItsOwnDatabaseAndReportsIt() {
        StringWriter text = new StringWriter();
        new KernelWarmUp(LocusConfig.defaults(), () -> false, new PrintWriter(text), 1).run();
        assertThat(text.toString()).startsWith("warm-up: " + TpchQuery.all().size() + " queries on a TPC-H SF 0.01")
                .contains("compiled");
    }
}
