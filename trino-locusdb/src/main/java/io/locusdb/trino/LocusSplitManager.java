package io.locusdb.trino;

import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.FixedSplitSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** One split per table part per server, as the servers listed them when the query was planned. */
final class LocusSplitManager implements ConnectorSplitManager {
    private final LocusCatalog catalog;

    LocusSplitManager(LocusCatalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session,
                                          ConnectorTableHandle table, Set<ColumnHandle> columns,
                                          Constraint constraint) {
        LocusTableHandle handle = (LocusTableHandle) table;
        if (handle.constraint().isNone()) {
            return FixedSplitSource.emptySplitSource();
        }
        List<ConnectorSplit> splits = new ArrayList<>();
        // The parts the query was planned with: a table repartitioned since fails its splits (SQLSTATE 40001).
        for (LocusCatalog.Part p : catalog.state(session.getQueryId()).parts(handle.table())) {
            splits.add(new LocusSplit(p.server(), handle.table(), p.part(), p.parts(), p.division(), p.rows(),
                    p.node()));
        }
        return new FixedSplitSource(splits);
    }
}
