package io.locusdb.server.net;

import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.protocol.ColumnDescription;
import io.locusdb.protocol.WireType;
import java.util.List;

/** The engine's column types as the protocol spells them. */
final class WireTypes {
    private WireTypes() {
    }

    static WireType of(ColumnType type) {
        return switch (type.kind()) {
            case BOOLEAN -> WireType.of(WireType.BOOLEAN);
            case INTEGER -> WireType.of(WireType.INTEGER);
            case BIGINT -> WireType.of(WireType.BIGINT);
            case DOUBLE -> WireType.of(WireType.DOUBLE);
            case DECIMAL -> WireType.decimal(type.precision(), type.scale());
            case DATE -> WireType.of(WireType.DATE);
            case TIMESTAMP -> WireType.of(WireType.TIMESTAMP);
            case TIMESTAMP_TZ -> WireType.of(WireType.TIMESTAMP_TZ);
            case VARCHAR -> WireType.varchar(type.length());
            case CHAR -> WireType.character(type.length());
            case INTERVAL_DAY_TIME -> WireType.of(WireType.INTERVAL_DAY_TIME);
            case INTERVAL_YEAR_MONTH -> WireType.of(WireType.INTERVAL_YEAR_MONTH);
        };
    }

    /** Result columns: the engine does not say whether a computed column can be NULL, so they are all nullable. */
    static List<ColumnDescription> describe(List<ResultColumn> columns) {
        return columns.stream().map(c -> new ColumnDescription(c.name(), of(c.type()), true)).toList();
    }
}
