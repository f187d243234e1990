package io.locusdb.trino;

import io.trino.spi.Plugin;
import io.trino.spi.connector.ConnectorFactory;
import java.util.List;

/** The Trino plugin: one connector, {@code connector.name=locusdb}. */
public final class LocusPlugin implements Plugin {
    @Override
    public Iterable<ConnectorFactory> getConnectorFactories() {
        return List.of(new LocusConnectorFactory());
    }
}
