package io.locusdb.bench.clients;

import io.locusdb.core.workload.TpchQuery;
import io.locusdb.core.workload.TpchQueryText;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * All 22 TPC-H queries as a client mix: each template with a few parameter sets drawn by the specification's rules,
 * each answered once by the oracle before the run, so that every answer a client gets is checked. A client prepares
 * every text once and then runs a random template with a random one of its parameter sets; the mix's entries share
 * their template's name, so a template's latencies are reported together.
 */
public final class TpchTemplateMix {
    private TpchTemplateMix() {
    }

    /** One template with one drawn parameter set and the oracle's answer. */
    record Drawn(TpchQueryText text, ReferenceAnswer answer) implements MixQuery {
        @Override
        public String name() {
            return text.query().name();
        }

        @Override
        public String sql() {
            return text.sql();
        }

        @Override
        public long runAndCheck(PreparedStatement statement, SplittableRandom random) throws SQLException {
            try (ResultSet rs = statement.executeQuery()) {
                return answer.check(text.describe(), rs);
            }
        }
    }

    /**
     * {@code draws} parameter sets per template from {@code seed}, answered by {@code oracle} (a database holding the
     * same TPC-H rows as the one under test).
     */
    public static List<MixQuery> queries(Connection oracle, long seed, int draws) throws SQLException {
        Random random = new Random(seed);
        List<MixQuery> out = new ArrayList<>();
        try (Statement s = oracle.createStatement()) {
            for (TpchQuery q : TpchQuery.all()) {
                for (int d = 0; d < draws; d++) {
                    TpchQueryText text = q.withRandomParameters(random);
                    try (ResultSet rs = s.executeQuery(text.sql())) {
                        out.add(new Drawn(text, ReferenceAnswer.of(rs)));
                    }
                }
            }
        }
        return out;
    }
}
