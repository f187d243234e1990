package io.locusdb.core.storage.load;

import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.PartPlacement;
import io.locusdb.core.storage.table.PartitionRouter;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TablePartBuilder;
import io.locusdb.core.storage.type.TimeZones;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.ZonedTimestamps;
import io.locusdb.core.storage.type.ValueFormatException;
import io.locusdb.core.storage.type.ValueParser;
import io.locusdb.natives.memory.NodeMemory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Loads a CSV or TPC-H {@code .tbl} file into a new table. The file is mapped and parsed by all threads at once, each
 * over a newline-aligned range, straight from its bytes; rows are routed to their part (HASH, ROUND_ROBIN; RANGE is
 * split by key quantiles at the end), then all parts are encoded in parallel. A file with quoted fields (which may
 * hide line breaks) is parsed serially instead.
 * The first malformed row stops the load with file, line, column and reason, and nothing is left allocated: the
 * caller registers the returned table only on success.
 */
public final class DelimitedFileLoader {
    private final NodeMemory memory;
    private final int threads;

    public DelimitedFileLoader(NodeMemory memory, int threads) {
        this.memory = memory;
        this.threads = threads;
    }

    public Table load(Path file, String tableName, Schema schema, PartitionSpec spec, DelimitedFormat format,
                      InitialPlacement placement, LoadProgress progress) {
        // Check everything that does not depend on the data first, so a bad request fails before any work.
        if (tableName == null || tableName.isBlank()) {
            throw new IllegalArgumentException("a table needs a name");
        }
        if (spec.column() != null) {
            schema.indexOf(spec.column());
        }
        for (int p = 0; p < spec.parts(); p++) {
            placement.place(p, memory.topology());
        }
        try {
            return loadMapped(file, tableName, schema, spec, format, placement, progress);
        } catch (MappedChunkParser.QuotedFieldFound e) {
            // Quoted fields may hide line breaks, so the file cannot be cut at arbitrary newlines: parse serially.
            return loadSerial(file, tableName, schema, spec, format, placement, progress);
        }
    }

    /**
     * The fast path: the file is mapped, cut into newline-aligned ranges and parsed by all threads at once straight
     * from its bytes; each thread's rows become pieces of the parts, encoded together.
     */
    private Table loadMapped(Path file, String tableName, Schema schema, PartitionSpec spec, DelimitedFormat format,
                             InitialPlacement placement, LoadProgress progress) {
        String source = file.toString();
        int keyColumn = spec.column() == null ? -1 : schema.indexOf(spec.column());
        int stagingParts = spec instanceof PartitionSpec.Range ? 1 : spec.parts();
        List<MappedChunkParser> parsers = new ArrayList<>();
        long t0 = System.nanoTime();
        try (Arena arena = Arena.ofShared();
             FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size == 0 && format.header()) {
                throw new LoadException(source, 1, null, "empty file: expected a header line");
            }
            MemorySegment bytes = size == 0 ? MemorySegment.NULL
                    : channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            // A few chunks per thread, so that a thread slowed down (by a neighbour on its core) does not hold up
            // the rest: the others take its remaining chunks.
            int chunks = (int) Math.max(1, Math.min(4L * threads, size / (1 << 20)));
            long[] bounds = new long[chunks + 1];
            bounds[chunks] = size;
            for (int k = 1; k < chunks; k++) {
                long b = Math.max(bounds[k - 1], size * k / chunks);
                while (b < size && bytes.get(ValueLayout.JAVA_BYTE, b - 1) != '\n') {
                    b++;
                }
                bounds[k] = b;
            }
            for (int k = 0; k < chunks; k++) {
                parsers.add(new MappedChunkParser(bytes, schema, spec, format, stagingParts, keyColumn));
            }
            runParsers(parsers, bounds, format.header());
            MappedChunkParser.Failure first = parsers.stream().map(p -> p.failure).filter(f -> f != null)
                    .min(Comparator.comparingLong(MappedChunkParser.Failure::lineOffset)).orElse(null);
            if (first != null) {
                throw new LoadException(source, lineNumber(bytes, first.lineOffset()), first.column(),
                        first.reason());
            }
        } catch (NoSuchFileException e) {
            throw new LoadException(source, 0, null, "no such file");
        } catch (IOException e) {
            throw new LoadException(source, "cannot read: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            parsers.forEach(p -> p.builders.forEach(TablePartBuilder::discard));
            throw e;
        }
        progress.rowsDone(tableName, parsers.stream().mapToLong(p -> p.rows).sum(), 0);
        List<List<TablePartBuilder>> parts = new ArrayList<>();
        List<Long> bounds = List.of();
        if (spec instanceof PartitionSpec.Range) {
            List<TablePartBuilder> staged = parsers.stream().map(p -> p.builders.getFirst()).toList();
            try {
                RangeSplitter splitter = new RangeSplitter(staged, keyColumn, spec.parts());
                splitter.builders.forEach(b -> parts.add(List.of(b)));
                bounds = splitter.bounds;
            } finally {
                staged.forEach(TablePartBuilder::discard);
            }
        } else {
            for (int p = 0; p < stagingParts; p++) {
                int part = p;
                parts.add(parsers.stream().map(parser -> parser.builders.get(part)).toList());
            }
        }
        List<PartPlacement> placements = new ArrayList<>();
        for (int p = 0; p < parts.size(); p++) {
            placements.add(placement.place(p, memory.topology()));
        }
        long t1 = System.nanoTime();
        List<TablePart> built = PartAssembler.buildAllFromPieces(parts, memory, placements, threads);
        if (Boolean.getBoolean("locus.debug.load")) {
            System.err.printf("%s: parse %.2f s, encode %.2f s%n", tableName, (t1 - t0) / 1e9,
                    (System.nanoTime() - t1) / 1e9);
        }
        return newTableOrFree(tableName, schema, spec, built, bounds);
    }

    private void runParsers(List<MappedChunkParser> parsers, long[] bounds, boolean header) {
        try (ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, parsers.size())),
                Thread.ofPlatform().name("locus-parse-", 0).daemon().factory())) {
            List<Future<?>> futures = new ArrayList<>();
            for (int k = 0; k < parsers.size(); k++) {
                int chunk = k;
                futures.add(pool.submit(() -> parsers.get(chunk).parse(bounds[chunk], bounds[chunk + 1],
                        header && chunk == 0)));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("parsing failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading", e);
        }
    }

    /** 1-based line number of a byte offset: counted only when reporting an error. */
    private static long lineNumber(MemorySegment bytes, long offset) {
        long line = 1;
        for (long i = 0; i < offset; i++) {
            if (bytes.get(ValueLayout.JAVA_BYTE, i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private Table loadSerial(Path file, String tableName, Schema schema, PartitionSpec spec, DelimitedFormat format,
                             InitialPlacement placement, LoadProgress progress) {
        String source = file.toString();
        int keyColumn = spec.column() == null ? -1 : schema.indexOf(spec.column());
        int stagingParts = spec instanceof PartitionSpec.Range ? 1 : spec.parts();
        List<TablePartBuilder> builders = new ArrayList<>();
        for (int p = 0; p < stagingParts; p++) {
            builders.add(new TablePartBuilder(schema));
        }
        RowSink sink = new RowSink(schema);
        long expectedBytes = sizeOf(file);
        long rows = 0;
        boolean parsed = false;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(Files.newInputStream(file),
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)), 1 << 16)) {
            DelimitedLineParser parser = new DelimitedLineParser(reader, format, source);
            if (format.header()) {
                List<String> header = parser.next();
                if (header == null) {
                    throw new LoadException(source, 1, null, "empty file: expected a header line");
                }
                checkFieldCount(header, schema, parser.lineNumber(), source, format);
            }
            List<String> fields;
            while ((fields = parser.next()) != null) {
                long line = parser.lineNumber();
                checkFieldCount(fields, schema, line, source, format);
                int part = 0;
                if (spec instanceof PartitionSpec.Hash hash) {
                    part = PartitionRouter.hashPart(keyOf(fields, keyColumn, schema, line, source, format), hash);
                } else if (spec instanceof PartitionSpec.RoundRobin rr) {
                    part = (int) (rows % rr.parts());
                }
                TablePartBuilder builder = builders.get(part);
                for (int c = 0; c < schema.size(); c++) {
                    String field = fields.get(c);
                    try {
                        sink.append(builder, c, field, field == null);
                    } catch (ValueFormatException e) {
                        throw new LoadException(source, line, columnName(schema, c), e.getMessage());
                    }
                }
                rows++;
                if ((rows & 0xFFFF) == 0) {
                    progress.rowsDone(tableName, 0x10000, 0);
                }
            }
            progress.rowsDone(tableName, rows & 0xFFFF, 0);
            parsed = true;
        } catch (CharacterCodingException e) {
            throw new LoadException(source, 0, null, "the file is not valid UTF-8 (" + e.getMessage() + ")");
        } catch (NoSuchFileException e) {
            throw new LoadException(source, 0, null, "no such file");
        } catch (IOException e) {
            throw new LoadException(source, "cannot read: " + e.getMessage(), e);
        } finally {
            if (!parsed) {
                builders.forEach(TablePartBuilder::discard);
            }
        }
        List<Long> bounds = List.of();
        if (spec instanceof PartitionSpec.Range) {
            TablePartBuilder staged = builders.getFirst();
            try {
                RangeSplitter splitter = new RangeSplitter(List.of(staged), keyColumn, spec.parts());
                builders = splitter.builders;
                bounds = splitter.bounds;
            } finally {
                staged.discard();
            }
        }
        List<TablePart> parts = PartAssembler.buildAll(builders, memory, placement, threads);
        return newTableOrFree(tableName, schema, spec, parts, bounds);
    }

    private static Table newTableOrFree(String name, Schema schema, PartitionSpec spec, List<TablePart> parts,
                                        List<Long> bounds) {
        try {
            return new Table(name, schema, spec, parts, bounds);
        } catch (RuntimeException e) {
            parts.forEach(TablePart::release);
            throw e;
        }
    }

    private static Object keyOf(List<String> fields, int keyColumn, Schema schema, long line, String source,
                                DelimitedFormat format) {
        String field = fields.get(keyColumn);
        if (field == null) {
            return null;
        }
        try {
            var type = schema.column(keyColumn).type();
            return switch (type.kind()) {
                case BOOLEAN -> ValueParser.parseBoolean(field) ? 1L : 0L;
                case INTEGER, BIGINT -> ValueParser.parseInteger(field, type);
                case DECIMAL -> ValueParser.parseDecimal(field, type);
                case DATE -> ValueParser.parseDate(field);
                case TIMESTAMP -> Timestamps.parse(field);
                case TIMESTAMP_TZ -> ZonedTimestamps.parse(field, TimeZones.DEFAULT);
                case DOUBLE -> ValueParser.parseDouble(field);
                case VARCHAR, CHAR -> field;
                case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> throw new IllegalStateException(
                        "no table has an INTERVAL column");
            };
        } catch (ValueFormatException e) {
            throw new LoadException(source, line, columnName(schema, keyColumn), e.getMessage());
        }
    }

    private static void checkFieldCount(List<String> fields, Schema schema, long line, String source,
                                        DelimitedFormat format) {
        if (fields.size() != schema.size()) {
            throw new LoadException(source, line, null, "expected " + schema.size() + " fields, found "
                    + fields.size() + (fields.size() < schema.size() ? " (truncated line?)" : ""));
        }
    }

    static String columnName(Schema schema, int column) {
        return (column + 1) + " (" + schema.column(column).name() + ")";
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }
}
