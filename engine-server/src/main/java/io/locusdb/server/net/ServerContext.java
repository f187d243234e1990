package io.locusdb.server.net;

import io.locusdb.core.exec.ExecutionOptions;
import io.locusdb.core.LocusDB;
import io.locusdb.server.metrics.ServerMetrics;
import java.util.concurrent.atomic.AtomicBoolean;

/** What every connection of one server shares. */
record ServerContext(ServerConfig config, LocusDB db, ServerMetrics metrics, Authenticator authenticator,
                     SessionRegistry sessions, String serverVersion, AtomicBoolean draining,
                     PasswordChecks passwordChecks, StartupGate startups) {

    ExecutionOptions executionOptions() {
        return ExecutionOptions.DEFAULTS.withMemoryBudget(config.queryMemoryBudgetBytes());
    }

    boolean isDraining() {
        return draining.get();
    }
}
