package io.locusdb.trino;

import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorNodePartitioningProvider;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.transaction.IsolationLevel;

/** A catalog over the LocusDB servers its properties name; read-only. */
final class LocusConnector implements Connector {
    private final LocusServers servers;
    private final LocusMetadata metadata;
    private final LocusSplitManager splits;
    private final LocusPageSourceProvider pages;
    private final LocusNodePartitioningProvider partitionings = new LocusNodePartitioningProvider();

    LocusConnector(LocusServers servers) {
        this.servers = servers;
        LocusCatalog catalog = new LocusCatalog(servers);
        this.metadata = new LocusMetadata(catalog, servers.pushdown(), servers.partitioning());
        this.splits = new LocusSplitManager(catalog);
        this.pages = new LocusPageSourceProvider(servers);
    }

    @Override
    public ConnectorTransactionHandle beginTransaction(IsolationLevel isolationLevel, boolean readOnly,
                                                      boolean autoCommit) {
        return LocusTransactionHandle.INSTANCE;
    }

    @Override
    public ConnectorMetadata getMetadata(ConnectorSession session, ConnectorTransactionHandle transaction) {
        return metadata;
    }

    @Override
    public ConnectorSplitManager getSplitManager() {
        return splits;
    }

    @Override
    public ConnectorNodePartitioningProvider getNodePartitioningProvider() {
        return partitionings;
    }

    @Override
    public ConnectorPageSourceProvider getPageSourceProvider() {
        return pages;
    }

    @Override
    public void shutdown() {
        servers.close();
    }
}
