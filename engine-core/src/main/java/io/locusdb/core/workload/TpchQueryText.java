package io.locusdb.core.workload;

import java.util.Map;
import java.util.TreeMap;

/** One TPC-H query ready to run: which query, the parameters substituted into it, and the SQL. */
public record TpchQueryText(TpchQuery query, Map<String, String> parameters, String sql) {
    public TpchQueryText {
        parameters = Map.copyOf(parameters);
    }

    /** The query and its parameters, as a report or a test name shows them: {@code Q3 {SEGMENT=..., DATE=...}}. */
    public String describe() {
        return query.name() + " " + new TreeMap<>(parameters);
    }
}
