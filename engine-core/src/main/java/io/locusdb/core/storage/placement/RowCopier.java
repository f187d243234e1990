package io.locusdb.core.storage.placement;

import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.ColumnBuilder;
import io.locusdb.core.storage.column.DoubleColumnBuilder;
import io.locusdb.core.storage.column.DoubleDictionary;
import io.locusdb.core.storage.column.LongColumnBuilder;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.column.StringColumnBuilder;
import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TablePartBuilder;

/** Decodes rows of a part into a builder: the data path of repartition and merge (which re-encode). */
final class RowCopier {
    private RowCopier() {
    }

    static void copyRow(TablePart part, long row, TablePartBuilder target) {
        for (int c = 0; c < part.columns().size(); c++) {
            copyValue(part.column(c), row, target.column(c));
        }
    }

    /** Appends a delta row (normalized boxed values) to a builder. */
    static void copyDeltaRow(Object[] row, TablePartBuilder target) {
        for (int c = 0; c < row.length; c++) {
            target.column(c).appendBoxed(row[c]);
        }
    }

    static void copyValue(Column column, long row, ColumnBuilder target) {
        int id = column.codes().get(row);
        if (id == 0) {
            target.appendNull();
            return;
        }
        switch (column.dictionary()) {
            case LongDictionary d -> ((LongColumnBuilder) target).append(d.value(id));
            case DoubleDictionary d -> ((DoubleColumnBuilder) target).append(d.value(id));
            case StringDictionary d -> ((StringColumnBuilder) target).append(d.value(id));
        }
    }

    /** The row's key as a long (RANGE keys are long-typed), or null for NULL. */
    static Long longKey(Column column, long row) {
        int id = column.codes().get(row);
        return id == 0 ? null : ((LongDictionary) column.dictionary()).value(id);
    }

    /** The row's key boxed for hashing. */
    static Object boxedKey(Column column, long row) {
        Object value = column.dictionary().boxedValue(column.codes().get(row));
        return value;
    }
}
