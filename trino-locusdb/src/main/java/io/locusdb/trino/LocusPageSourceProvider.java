package io.locusdb.trino;

import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.DynamicFilter;
import java.util.List;
import java.util.Optional;

/** Reads a split: one query to the split's server that reads one part (see {@link PartQuery}). */
final class LocusPageSourceProvider implements ConnectorPageSourceProvider {
    private final LocusServers servers;

    LocusPageSourceProvider(LocusServers servers) {
        this.servers = servers;
    }

    @Override
    public ConnectorPageSource createPageSource(ConnectorTransactionHandle transaction, ConnectorSession session,
                                                ConnectorSplit split, ConnectorTableHandle table,
                                                Optional<ConnectorTableCredentials> credentials,
                                                List<ColumnHandle> columns, DynamicFilter dynamicFilter) {
        LocusSplit s = (LocusSplit) split;
        List<LocusColumnHandle> read = columns.stream().map(LocusColumnHandle.class::cast).toList();
        return new LocusPageSource(servers, s, PartQuery.sql(s, (LocusTableHandle) table, read, servers.pushdown()),
                read, servers.pushdown());
    }
}
