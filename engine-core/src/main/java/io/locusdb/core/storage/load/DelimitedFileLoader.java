package io.locusdb.core.storage.load;

import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TablePartBuilder;
import io.locusdb.core.storage.type.ValueFormatException;
import io.locusdb.core.storage.type.ValueParser;
import io.locusdb.natives.memory.NodeMemory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads a CSV or TPC-H {@code .tbl} file into a new table. Lines are parsed as they stream in and routed to their
 * part (HASH, ROUND_ROBIN; RANGE is split by key quantiles at the end); then all parts are encoded in parallel.
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
                RangeSplitter splitter = new RangeSplitter(staged, keyColumn, spec.parts());
                builders = splitter.builders;
                bounds = splitter.bounds;
            } finally {
                staged.discard();
            }
        }
        List<TablePart> parts = PartAssembler.buildAll(builders, memory, placement, threads);
        return new Table(tableName, schema, spec, parts, bounds);
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
                case DOUBLE -> ValueParser.parseDouble(field);
                case VARCHAR, CHAR -> field;
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
