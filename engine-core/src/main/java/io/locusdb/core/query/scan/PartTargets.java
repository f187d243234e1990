package io.locusdb.core.query.scan;

import io.locusdb.core.exec.UtilizationTarget;
import io.locusdb.core.storage.table.TableSnapshot;

/**
 * Where the tasks that read a table part account their use of its node: the placer's utilization histories in a
 * database, nothing in tests that drive operators on their own.
 */
@FunctionalInterface
public interface PartTargets {
    PartTargets NONE = (snapshot, part) -> null;

    /** The target of part {@code part} of the snapshot, or null for none. */
    UtilizationTarget of(TableSnapshot snapshot, int part);
}
