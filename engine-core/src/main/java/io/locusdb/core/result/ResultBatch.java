package io.locusdb.core.result;

import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.Intervals;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.ZonedTimestamps;
import io.locusdb.core.vector.Chunk;
import io.locusdb.core.vector.ColumnVector;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/**
 * Some rows of a result: a {@link Chunk} of the result's columns, in physical values (scaled longs for DECIMAL,
 * epoch days for DATE). {@link #value} converts one to its Java type for row-at-a-time readers.
 */
public record ResultBatch(List<ResultColumn> columns, Chunk chunk) {
    public ResultBatch(List<ResultColumn> columns, List<ColumnVector> vectors, int rows) {
        this(columns, Chunk.of(vectors, rows));
    }

    public int rows() {
        return chunk.rows();
    }

    public List<ColumnVector> vectors() {
        return chunk.columns();
    }

    public ColumnVector vector(int column) {
        return chunk.column(column);
    }

    /** Column {@code column} of row {@code row} as Long/Integer/BigDecimal/Double/String/LocalDate/LocalDateTime/OffsetDateTime (UTC)/Duration/Period/Boolean/null. */
    public Object value(int row, int column) {
        ColumnVector v = chunk.column(column);
        if (v.isNull(row)) {
            return null;
        }
        return toJava(columns.get(column).type(), v, row);
    }

    public static Object toJava(ColumnType type, ColumnVector v, int row) {
        return switch (type.kind()) {
            case BOOLEAN -> v.longs()[row] != 0;
            case INTEGER -> (int) v.longs()[row];
            case BIGINT -> v.longs()[row];
            case DECIMAL -> BigDecimal.valueOf(v.longs()[row], type.scale());
            case DATE -> LocalDate.ofEpochDay(v.longs()[row]);
            case TIMESTAMP -> Timestamps.toLocalDateTime(v.longs()[row]);
            case TIMESTAMP_TZ -> ZonedTimestamps.toOffsetDateTime(v.longs()[row]);
            case DOUBLE -> v.doubles()[row];
            case VARCHAR, CHAR -> v.string(row);
            case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> Intervals.toJava(type.kind(), v.longs()[row]);
        };
    }
}
