package io.locusdb.jdbc;

import io.locusdb.protocol.DecodedBatch;
import java.sql.SQLException;

/**
 * A LocusDB result read batch by batch, as the server sent it: per column, primitive arrays of exactly the batch's
 * rows, so a reader that copies columns whole (a Trino page source) needs no call per value. Obtained with
 * {@code resultSet.unwrap(ColumnBatches.class)}.
 */
public interface ColumnBatches {
    /**
     * The next batch with rows, or null after the last. Reading by batches and by rows ({@code next()}) do not
     * mix: once the cursor is inside a batch, this refuses.
     */
    DecodedBatch nextBatch() throws SQLException;
}
