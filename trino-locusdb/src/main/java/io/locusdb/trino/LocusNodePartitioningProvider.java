package io.locusdb.trino;

import io.trino.spi.connector.BucketFunction;
import io.trino.spi.connector.ConnectorBucketNodeMap;
import io.trino.spi.connector.ConnectorNodePartitioningProvider;
import io.trino.spi.connector.ConnectorPartitioningHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.type.Type;
import java.util.List;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * Buckets of a {@link LocusPartitioningHandle}: a split's bucket is its part on its server; a row's (when Trino
 * sends other rows to where a LocusDB table's buckets are read) is where its key lives. Trino places buckets on
 * its workers as it likes: LocusDB servers are not Trino workers, so no worker is nearer to a part than another.
 */
final class LocusNodePartitioningProvider implements ConnectorNodePartitioningProvider {
    @Override
    public Optional<ConnectorBucketNodeMap> getBucketNodeMapping(ConnectorTransactionHandle transaction,
                                                                 ConnectorSession session,
                                                                 ConnectorPartitioningHandle partitioning) {
        return Optional.of(ConnectorBucketNodeMap.createBucketNodeMap(
                ((LocusPartitioningHandle) partitioning).bucketCount()));
    }

    @Override
    public ToIntFunction<ConnectorSplit> getSplitBucketFunction(ConnectorTransactionHandle transaction,
                                                                ConnectorSession session,
                                                                ConnectorPartitioningHandle partitioning,
                                                                int bucketCount) {
        LocusPartitioningHandle handle = (LocusPartitioningHandle) partitioning;
        return split -> {
            LocusSplit s = (LocusSplit) split;
            return handle.bucketOf(s.server(), s.part(), s.parts());
        };
    }

    @Override
    public BucketFunction getBucketFunction(ConnectorTransactionHandle transaction, ConnectorSession session,
                                            ConnectorPartitioningHandle partitioning, List<Type> partitionChannelTypes,
                                            int bucketCount) {
        LocusPartitioningHandle handle = (LocusPartitioningHandle) partitioning;
        if (partitionChannelTypes.size() != 1 || bucketCount != handle.bucketCount()) {
            throw new IllegalArgumentException("a LocusDB partitioning has one key and " + handle.bucketCount()
                    + " buckets, not " + partitionChannelTypes + " in " + bucketCount);
        }
        return new KeyBucketFunction(handle, partitionChannelTypes.getFirst());
    }
}
