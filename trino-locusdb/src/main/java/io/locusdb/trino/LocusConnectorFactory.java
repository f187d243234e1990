package io.locusdb.trino;

import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorFactory;
import java.util.Map;

/** Makes a catalog's connector from its properties (see {@link CatalogSettings}). */
public final class LocusConnectorFactory implements ConnectorFactory {
    @Override
    public String getName() {
        return "locusdb";
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context) {
        return new LocusConnector(new LocusServers(CatalogSettings.of(config)));
    }
}
