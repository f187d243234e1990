package io.locusdb.server.net;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.result.BatchSource;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.SystemViews;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.ViewDefinition;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.protocol.Message;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * METADATA answers as an ordinary result (so they stream with the same flow control): the catalog's tables and views
 * (type TABLE or VIEW), or their columns ordered by name and ordinal, filtered by LIKE patterns. This is what the
 * driver's DatabaseMetaData reads.
 */
final class MetadataResults {
    static final List<ResultColumn> TABLE_COLUMNS = List.of(
            new ResultColumn("table_name", ColumnType.VARCHAR),
            new ResultColumn("table_type", ColumnType.VARCHAR),
            new ResultColumn("remarks", ColumnType.VARCHAR));
    static final List<ResultColumn> COLUMN_COLUMNS = List.of(
            new ResultColumn("table_name", ColumnType.VARCHAR),
            new ResultColumn("column_name", ColumnType.VARCHAR),
            new ResultColumn("ordinal", ColumnType.INTEGER),
            new ResultColumn("type_name", ColumnType.VARCHAR),
            new ResultColumn("type_tag", ColumnType.INTEGER),
            new ResultColumn("precision", ColumnType.INTEGER),
            new ResultColumn("scale", ColumnType.INTEGER),
            new ResultColumn("length", ColumnType.INTEGER),
            new ResultColumn("nullable", ColumnType.BOOLEAN));

    private MetadataResults() {
    }

    /** A table or a view: what has columns. */
    private record Relation(String name, Schema schema) {
    }

    static QueryResult answer(Catalog catalog, Message.Metadata request) {
        LikePattern tables = LikePattern.compile(request.tablePattern());
        LikePattern columns = LikePattern.compile(request.columnPattern());
        List<Object[]> rows = new ArrayList<>();
        if (request.what() == Message.Metadata.TABLES) {
            for (SystemViews.TableRow t : new SystemViews(catalog).tables()) {
                if (tables.matches(t.name())) {
                    rows.add(new Object[] {t.name(), "TABLE", t.partitioning() + ", " + t.parts() + " part(s)"
                            + (t.group() == null ? "" : ", group " + t.group())});
                }
            }
            for (ViewDefinition view : catalog.views()) {
                if (tables.matches(view.name())) {
                    rows.add(new Object[] {view.name(), "VIEW", view.sql()});
                }
            }
            return result(TABLE_COLUMNS, rows);
        }
        List<Relation> relations = new ArrayList<>();
        for (Table table : catalog.tables()) {
            relations.add(new Relation(table.name(), table.schema()));
        }
        for (ViewDefinition view : catalog.views()) {
            relations.add(new Relation(view.name(), view.columns()));
        }
        relations.sort(Comparator.comparing(Relation::name));
        for (Relation relation : relations) {
            if (!tables.matches(relation.name())) {
                continue;
            }
            List<ColumnDef> defs = relation.schema().columns();
            for (int i = 0; i < defs.size(); i++) {
                ColumnDef def = defs.get(i);
                if (columns.matches(def.name())) {
                    ColumnType type = def.type();
                    rows.add(new Object[] {relation.name(), def.name(), (long) (i + 1), type.toString(),
                            (long) WireTypes.of(type).tag(), (long) type.precision(), (long) type.scale(),
                            (long) type.length(), def.nullable() ? 1L : 0L});
                }
            }
        }
        return result(COLUMN_COLUMNS, rows);
    }

    private static QueryResult result(List<ResultColumn> columns, List<Object[]> rows) {
        List<ColumnVector> vectors = new ArrayList<>();
        for (int c = 0; c < columns.size(); c++) {
            ColumnVector v = new ColumnVector(columns.get(c).type(), Math.max(1, rows.size()));
            for (int r = 0; r < rows.size(); r++) {
                switch (rows.get(r)[c]) {
                    case String s -> v.setString(r, s);
                    case Long l -> v.setLong(r, l);
                    default -> v.setNull(r);
                }
            }
            v.setSize(rows.size());
            vectors.add(v);
        }
        ResultBatch batch = new ResultBatch(columns, vectors, rows.size());
        return QueryResult.rows(columns, BatchSource.of(batch));
    }
}
