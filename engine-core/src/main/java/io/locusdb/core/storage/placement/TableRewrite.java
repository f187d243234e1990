package io.locusdb.core.storage.placement;

import io.locusdb.core.storage.load.PartAssembler;
import io.locusdb.core.storage.table.PartDelta;
import io.locusdb.core.storage.table.PartPlacement;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TablePartBuilder;
import io.locusdb.core.storage.table.TableVersion;
import io.locusdb.natives.memory.NodeMemory;
import java.util.ArrayList;
import java.util.List;

/**
 * A table's rows under a new definition (ALTER TABLE: columns added, dropped or renamed, a new name): every part
 * rewritten into a new part on the same node, with the same partitioning and range bounds, its visible rows
 * (main and delta, deletions applied) copied column by column. The result is a new, unregistered table; the old
 * one is untouched, and the caller swaps them while no writer can commit to the old one.
 */
public final class TableRewrite {
    private TableRewrite() {
    }

    /**
     * @param sources per column of {@code schema}, the column of {@code table} it takes its values from, or -1 for a
     *                new column that takes {@code defaults[i]} (a physical value, or null) in every row
     */
    public static Table rewrite(Table table, String name, Schema schema, PartitionSpec spec, int[] sources,
                                Object[] defaults, NodeMemory memory, int threads) {
        if (sources.length != schema.size() || defaults.length != schema.size()) {
            throw new IllegalArgumentException("one source and one default per column of the new definition");
        }
        TableVersion version = table.version();
        long commit = table.committed();
        List<TablePartBuilder> builders = new ArrayList<>();
        List<PartPlacement> placements = new ArrayList<>();
        try {
            for (TablePart part : version.parts()) {
                TablePartBuilder builder = new TablePartBuilder(schema);
                builders.add(builder);
                copyVisibleRows(part, commit, sources, defaults, builder);
                placements.add(part.placement());
            }
            List<TablePart> parts = PartAssembler.buildAll(builders, memory, placements, threads);
            return new Table(name, schema, spec, parts, version.rangeBounds());
        } catch (RuntimeException | Error e) {
            builders.forEach(TablePartBuilder::discard);
            throw e;
        }
    }

    private static void copyVisibleRows(TablePart part, long commit, int[] sources, Object[] defaults,
                                        TablePartBuilder target) {
        PartDelta delta = part.delta();
        long rows = part.rows();
        boolean deletions = delta.hasDeletions();
        for (long r = 0; r < rows; r++) {
            if (!deletions || !delta.isDeleted(r, commit)) {
                for (int c = 0; c < sources.length; c++) {
                    if (sources[c] >= 0) {
                        RowCopier.copyValue(part.column(sources[c]), r, target.column(c));
                    } else {
                        target.column(c).appendBoxed(defaults[c]);
                    }
                }
            }
        }
        int deltaRows = delta.visibleRows(commit);
        for (int i = 0; i < deltaRows; i++) {
            if (!deletions || !delta.isDeleted(rows + i, commit)) {
                Object[] row = delta.row(i);
                for (int c = 0; c < sources.length; c++) {
                    target.column(c).appendBoxed(sources[c] >= 0 ? row[sources[c]] : defaults[c]);
                }
            }
        }
    }
}
