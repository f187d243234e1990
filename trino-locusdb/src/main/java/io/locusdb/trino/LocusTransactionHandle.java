package io.locusdb.trino;

import io.trino.spi.connector.ConnectorTransactionHandle;

/** Reads only: each split reads its part as of the moment it starts (LocusDB's snapshot of that part). */
public enum LocusTransactionHandle implements ConnectorTransactionHandle {
    INSTANCE
}
