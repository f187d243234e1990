package io.locusdb.core.storage.load;

import io.trino.tpch.Distributions;
import io.trino.tpch.TextPool;
import java.util.function.Supplier;

/**
 * The text the TPC-H generator cuts its comments from. {@code io.trino.tpch} keeps its default pool (300 MiB of
 * heap) for the life of the JVM, which a server that generates its tables once would carry for nothing; a pool from
 * here lives as long as the loader that holds it.
 */
public final class TpchTextPool {
    /** The generator's default size: with it, and only with it, the comments are TPC-H's standard ones. */
    public static final int STANDARD_BYTES = 300 * 1024 * 1024;

    private TpchTextPool() {
    }

    /** The generator's default pool, kept by {@code io.trino.tpch} for the life of the JVM. */
    public static Supplier<TextPool> shared() {
        return TextPool.getDefaultTextPool();
    }

    /**
     * A pool of its own, built on first use and gone with the last reference to the supplier: {@link
     * #STANDARD_BYTES} gives the standard data (a few seconds to build); fewer bytes give comments with the standard
     * grammar and words but not the standard rows' (data that only has to look like TPC-H) at a fraction of the heap.
     */
    public static Supplier<TextPool> own(int bytes) {
        return new Supplier<>() {
            private TextPool pool;

            @Override
            public synchronized TextPool get() {
                if (pool == null) {
                    pool = new TextPool(bytes, Distributions.getDefaultDistributions());
                }
                return pool;
            }
        };
    }
}
