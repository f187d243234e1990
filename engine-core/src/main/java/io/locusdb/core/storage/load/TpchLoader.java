package io.locusdb.core.storage.load;

import io.locusdb.core.storage.column.LongColumnBuilder;
import io.locusdb.core.storage.column.StringColumnBuilder;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.PartPlacement;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TableGroup;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TablePartBuilder;
import io.locusdb.natives.memory.NodeMemory;
import io.trino.tpch.TextPool;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchColumnType;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Generates TPC-H tables with the {@code io.trino.tpch} generator straight into table parts, one generator chunk
 * per part and several parts at a time. The generator emits each chunk as a contiguous key range, so the parts are
 * RANGE partitions of the table's key, and orders/lineitem (and part/partsupp) chunks line up: they form table
 * groups whose part i lives on one node.
 */
public final class TpchLoader {
    /**
     * Generator chunks per slice when a table is loaded in slices: fixed, so that every server cuts the rows at the
     * same places whatever its cores and parts (up to this many parts; more parts cut at other places).
     */
    private static final int SLICE_CHUNKS = 60;
    private final NodeMemory memory;
    private final int threads;
    private final Supplier<TextPool> text;

    /** A loader of the standard TPC-H data from the generator's JVM-wide text pool ({@link TpchTextPool#shared()}). */
    public TpchLoader(NodeMemory memory, int threads) {
        this(memory, threads, TpchTextPool.shared());
    }

    /** A loader whose comments come from {@code text} (the standard data from a pool of the standard size). */
    public TpchLoader(NodeMemory memory, int threads, Supplier<TextPool> text) {
        this.memory = memory;
        this.threads = Math.max(1, threads);
        this.text = text;
    }

    /** Generates and registers all eight tables (and the two table groups) in {@code catalog}. */
    public List<Table> loadAll(Catalog catalog, double scaleFactor, int parts, InitialPlacement placement,
                               LoadProgress progress) {
        List<Table> loaded = generateAll(catalog, scaleFactor, parts, placement, progress);
        registerAll(catalog, loaded);
        return loaded;
    }

    /**
     * Generates all eight tables without registering them (a caller that must put them in place at a moment of its
     * choosing: a checkpoint's cut); fails first if {@code catalog} has any of them.
     */
    public List<Table> generateAll(Catalog catalog, double scaleFactor, int parts, InitialPlacement placement,
                                   LoadProgress progress) {
        return generateAll(catalog, scaleFactor, parts, 0, 1, placement, progress);
    }

    /**
     * As above, only slice {@code slice} of {@code slices}: of each table the rows of the slice-th of as many
     * consecutive key ranges (nation and region whole in slice 0 and empty in the others), so that several
     * servers loading one slice each hold every row once between them.
     */
    public List<Table> generateAll(Catalog catalog, double scaleFactor, int parts, int slice, int slices,
                                   InitialPlacement placement, LoadProgress progress) {
        if (slices < 1 || slice < 0 || slice >= slices) {
            throw new IllegalArgumentException("slice " + slice + " of " + slices + " does not exist");
        }
        for (TpchTable<?> table : TpchTable.getTables()) {
            if (catalog.find(table.getTableName()).isPresent()) {
                throw new IllegalArgumentException("table '" + table.getTableName() + "' already exists");
            }
        }
        List<Table> loaded = new ArrayList<>();
        try {
            for (TpchTable<?> table : TpchTable.getTables()) {
                loaded.add(generate(table, scaleFactor, parts, slice, slices, placement, progress));
            }
        } catch (RuntimeException | Error e) {
            loaded.forEach(t -> t.version().parts().forEach(TablePart::release));
            throw e;
        }
        return loaded;
    }

    /** Registers tables from {@link #generateAll} and puts them in their table groups. */
    public static void registerAll(Catalog catalog, List<Table> loaded) {
        for (Table table : loaded) {
            catalog.register(table);
            String group = TpchSchemas.groupOf(TpchTable.getTable(table.name()));
            if (group != null) {
                TableGroup g = catalog.findGroup(group).orElseGet(() -> catalog.createGroup(group));
                g.add(table);
            }
        }
    }

    /** Generates one table into {@code parts} parts (nation and region always get one). Not registered. */
    public <E extends TpchEntity> Table generate(TpchTable<E> table, double scaleFactor, int parts,
                                                 InitialPlacement placement, LoadProgress progress) {
        return generate(table, scaleFactor, parts, 0, 1, placement, progress);
    }

    /** As above, slice {@code slice} of {@code slices} of the table (see {@link #generateAll}). */
    public <E extends TpchEntity> Table generate(TpchTable<E> table, double scaleFactor, int parts, int slice,
                                                 int slices, InitialPlacement placement, LoadProgress progress) {
        if (!(scaleFactor > 0)) {
            throw new IllegalArgumentException("scale factor must be positive, got " + scaleFactor);
        }
        String key = TpchSchemas.partitionKey(table);
        int partCount = key == null ? 1 : parts;
        Schema schema = TpchSchemas.schemaOf(table);
        // nation and region cannot be divided: slice 0 holds them.
        boolean empty = key == null && slice > 0;
        int sliceCount = key == null ? 1 : slices;
        int sliceIndex = key == null ? 0 : slice;
        long expected = empty ? 0 : TpchSchemas.expectedRows(table, scaleFactor) / sliceCount;
        // Several generator chunks per part so every thread has work even when parts < threads, and a few per
        // thread so that a thread slowed down by a neighbour does not hold up the rest; the chunks of a part are
        // consecutive key ranges and are encoded together. A slice's chunks are consecutive among all slices'
        // chunks (one key range), and their number must not depend on this server's threads or parts: where the
        // generator starts a chunk depends on the count, and servers of other sizes must meet at the same row.
        int chunks = sliceCount > 1 ? Math.max(SLICE_CHUNKS, partCount)
                : key == null ? 1 : partCount * Math.max(1, (4 * threads + partCount - 1) / partCount);
        int firstChunk = sliceIndex * chunks;
        int allChunks = sliceCount * chunks;
        long t0 = System.nanoTime();
        List<TablePartBuilder> pieces = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, chunks),
                Thread.ofPlatform().name("locus-tpch-", 0).daemon().factory())) {
            List<Future<TablePartBuilder>> futures = new ArrayList<>();
            for (int c = 0; c < chunks; c++) {
                int chunk = firstChunk + c + 1;
                futures.add(pool.submit(() -> empty ? new TablePartBuilder(schema)
                        : fill(table, schema, scaleFactor, chunk, allChunks, expected, text, progress)));
            }
            try {
                for (Future<TablePartBuilder> f : futures) {
                    pieces.add(f.get());
                }
            } catch (ExecutionException | InterruptedException e) {
                pieces.forEach(TablePartBuilder::discard);
                for (Future<TablePartBuilder> f : futures) {
                    if (f.state() == Future.State.SUCCESS && !pieces.contains(f.resultNow())) {
                        f.resultNow().discard();
                    }
                }
                throw e;
            }
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r
                    : new IllegalStateException("TPC-H generation failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("TPC-H generation interrupted", e);
        }
        List<List<TablePartBuilder>> builders = new ArrayList<>();
        for (int p = 0; p < partCount; p++) {
            builders.add(pieces.subList((int) ((long) p * chunks / partCount),
                    (int) ((long) (p + 1) * chunks / partCount)));
        }
        List<Long> bounds = new ArrayList<>();
        if (key != null) {
            int keyColumn = schema.indexOf(key);
            for (int p = 1; p < partCount; p++) {
                Long first = null;
                for (TablePartBuilder piece : builders.get(p)) {
                    if (piece.rows() > 0) {
                        first = ((LongColumnBuilder) piece.column(keyColumn)).valueAt(0);
                        break;
                    }
                }
                bounds.add(first != null ? first : bounds.isEmpty() ? Long.MIN_VALUE : bounds.getLast());
            }
        }
        List<PartPlacement> placements = new ArrayList<>();
        for (int p = 0; p < partCount; p++) {
            placements.add(placement.place(p, memory.topology()));
        }
        long t1 = System.nanoTime();
        List<TablePart> built;
        try {
            built = PartAssembler.buildAllFromPieces(builders, memory, placements, threads);
        } catch (RuntimeException | Error e) {
            pieces.forEach(TablePartBuilder::discard);
            throw e;
        }
        if (Boolean.getBoolean("locus.debug.load")) {
            System.err.printf("%s: generate %.2f s, encode %.2f s%n", table.getTableName(), (t1 - t0) / 1e9,
                    (System.nanoTime() - t1) / 1e9);
        }
        PartitionSpec spec = key == null ? PartitionSpec.none() : new PartitionSpec.Range(key, partCount);
        return new Table(table.getTableName().toLowerCase(Locale.ROOT), schema, spec, built, bounds);
    }

    private static <E extends TpchEntity> TablePartBuilder fill(TpchTable<E> table, Schema schema,
                                                                double scaleFactor, int chunk, int chunks,
                                                                long expected, Supplier<TextPool> text,
                                                                LoadProgress progress) {
        TablePartBuilder builder = new TablePartBuilder(schema);
        try {
            fillRows(table, builder, scaleFactor, chunk, chunks, expected, text, progress);
        } catch (RuntimeException | Error e) {
            builder.discard();
            throw e;
        }
        return builder;
    }

    private static <E extends TpchEntity> void fillRows(TpchTable<E> table, TablePartBuilder builder,
                                                         double scaleFactor, int chunk, int chunks, long expected,
                                                         Supplier<TextPool> text, LoadProgress progress) {
        List<TpchColumn<E>> columns = table.getColumns();
        int n = columns.size();
        // Per column, looked up once: the getter to call and the builder to fill.
        @SuppressWarnings("unchecked")
        TpchColumn<E>[] getters = columns.toArray(TpchColumn[]::new);
        TpchColumnType.Base[] bases = new TpchColumnType.Base[n];
        LongColumnBuilder[] longs = new LongColumnBuilder[n];
        StringColumnBuilder[] strings = new StringColumnBuilder[n];
        for (int c = 0; c < n; c++) {
            bases[c] = getters[c].getType().getBase();
            if (bases[c] == TpchColumnType.Base.VARCHAR) {
                strings[c] = (StringColumnBuilder) builder.column(c);
            } else {
                longs[c] = (LongColumnBuilder) builder.column(c);
            }
        }
        long rows = 0;
        for (E entity : TpchGenerators.create(table, scaleFactor, chunk, chunks, text)) {
            for (int c = 0; c < n; c++) {
                TpchColumn<E> column = getters[c];
                switch (bases[c]) {
                    case IDENTIFIER, DOUBLE -> longs[c].append(column.getIdentifier(entity));
                    case INTEGER -> longs[c].append(column.getInteger(entity));
                    case DATE -> longs[c].append(column.getDate(entity));
                    case VARCHAR -> strings[c].append(column.getString(entity));
                }
            }
            if ((++rows & 0xFFFF) == 0) {
                progress.rowsDone(table.getTableName(), 0x10000, expected);
            }
        }
        progress.rowsDone(table.getTableName(), rows & 0xFFFF, expected);
    }
}
