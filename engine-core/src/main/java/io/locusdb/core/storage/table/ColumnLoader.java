package io.locusdb.core.storage.table;

/**
 * Fills a part's columns on first use from where they are kept (a data directory's part file), so that a restart
 * is ready before every byte is in memory. The part's memory is allocated and placed already; loading writes into
 * it. Implementations are thread-safe, and loading a column twice is a no-op.
 */
public interface ColumnLoader {
    /** Makes column {@code column} readable; throws (naming the file) if its bytes are damaged. */
    void load(int column);

    /**
     * Loads about {@code maxBytes} more of column {@code column} (at least one step) and returns whether it is now
     * readable. A background reader loads a column in such pieces, so that it can give way to queries between them;
     * a query that needs the column meanwhile finishes it with {@link #load}.
     */
    default boolean loadSome(int column, long maxBytes) {
        load(column);
        return true;
    }

    /** True once every column is loaded (the part then forgets its loader). */
    boolean complete();

    /** Lets go of the source (the part was freed before every column was loaded). */
    void close();
}
