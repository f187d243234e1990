package io.locusdb.trino;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.connector.BucketFunction;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.Type;

/**
 * The bucket of a row by its one key column (BIGINT or INTEGER), as {@link LocusPartitioningHandle#bucketOf(long)}.
 * A NULL key matches no row and groups with no LocusDB row (the tables partitioned have none): bucket 0.
 */
final class KeyBucketFunction implements BucketFunction {
    private final LocusPartitioningHandle handle;
    private final Type keyType;

    KeyBucketFunction(LocusPartitioningHandle handle, Type keyType) {
        if (keyType != BigintType.BIGINT && keyType != IntegerType.INTEGER) {
            throw new IllegalArgumentException("a LocusDB partitioning key is BIGINT or INTEGER, not " + keyType);
        }
        this.handle = handle;
        this.keyType = keyType;
    }

    @Override
    public int getBucket(Page page, int position) {
        Block block = page.getBlock(0);
        if (block.isNull(position)) {
            return 0;
        }
        return handle.bucketOf(keyType.getLong(block, position));
    }
}
