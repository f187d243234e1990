package io.locusdb.server.net;

import io.locusdb.core.PreparedQuery;
import io.locusdb.core.exec.ExecutionOptions;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.server.pg.PgCommand;
import io.locusdb.server.pg.PgSettings;
import io.locusdb.server.pg.PgSqlText;
import io.locusdb.server.pg.PgType;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A Parse's result: an engine statement with its {@code $n} parameters mapped to the engine's positional ones, a
 * session command, or nothing (empty text). Every parameter has a concrete type: the one the client declared, else
 * the one the statement gives it, else text.
 */
final class PgPreparedStatement {
    private final String sql;
    private final PgCommand command;
    private final PreparedQuery prepared;
    /** For each engine parameter (each {@code ?} in order), the {@code $n} it stands for (1-based). */
    private final int[] order;
    private final int[] parameterOids;
    private final ColumnType[] inferred;

    private PgPreparedStatement(String sql, PgCommand command, PreparedQuery prepared, int[] order,
                                int[] parameterOids, ColumnType[] inferred) {
        this.sql = sql;
        this.command = command;
        this.prepared = prepared;
        this.order = order;
        this.parameterOids = parameterOids;
        this.inferred = inferred;
    }

    static PgPreparedStatement empty(String sql, int[] declared) {
        return new PgPreparedStatement(sql, null, null, new int[0], declaredOnly(declared), new ColumnType[0]);
    }

    static PgPreparedStatement command(String sql, PgCommand command, int[] declared) {
        return new PgPreparedStatement(sql, command, null, new int[0], declaredOnly(declared), new ColumnType[0]);
    }

    static PgPreparedStatement query(String sql, PgSqlText.Placeholders placeholders, PreparedQuery prepared,
                                     int[] declared) {
        int count = Math.max(placeholders.highest(), declared.length);
        int[] oids = new int[count];
        ColumnType[] inferred = new ColumnType[count];
        List<ColumnType> engineTypes = prepared.parameterTypes();
        for (int k = 0; k < placeholders.order().length && k < engineTypes.size(); k++) {
            int n = placeholders.order()[k] - 1;
            if (inferred[n] == null) {
                inferred[n] = engineTypes.get(k);
            }
        }
        for (int n = 0; n < count; n++) {
            int given = n < declared.length ? declared[n] : 0;
            if (given != 0 && PgType.byOid(given) != null) {
                oids[n] = given;
            } else if (inferred[n] != null) {
                oids[n] = PgType.of(inferred[n]).oid();
            } else {
                oids[n] = given != 0 ? given : PgType.TEXT.oid();
            }
        }
        return new PgPreparedStatement(sql, null, prepared, placeholders.order(), oids, inferred);
    }

    private static int[] declaredOnly(int[] declared) {
        int[] oids = Arrays.copyOf(declared, declared.length);
        for (int i = 0; i < oids.length; i++) {
            if (oids[i] == 0) {
                oids[i] = PgType.TEXT.oid();
            }
        }
        return oids;
    }

    String sql() {
        return sql;
    }

    PgCommand command() {
        return command;
    }

    boolean isEmpty() {
        return command == null && prepared == null;
    }

    int[] parameterOids() {
        return parameterOids;
    }

    ColumnType inferredType(int n) {
        return n < inferred.length ? inferred[n] : null;
    }

    /** The columns of the statement's result (none for DML, DDL and most session commands). */
    List<ResultColumn> columns() {
        return prepared == null ? List.of() : prepared.columns();
    }

    /** As {@link #columns()}, with SHOW's one text column. */
    List<ResultColumn> describedColumns(PgSettings settings) {
        if (command instanceof PgCommand.Show show) {
            return show.name() == null
                    ? List.of(new ResultColumn("name", ColumnType.VARCHAR), new ResultColumn("setting",
                    ColumnType.VARCHAR), new ResultColumn("description", ColumnType.VARCHAR))
                    : List.of(new ResultColumn(show.name().toLowerCase(Locale.ROOT), ColumnType.VARCHAR));
        }
        return columns();
    }

    /** Runs the statement with the values bound to {@code $1..$n}. */
    QueryResult execute(Object[] values, ExecutionOptions options) {
        prepared.clearParameters();
        for (int k = 0; k < order.length; k++) {
            prepared.set(k + 1, values[order[k] - 1]);
        }
        return prepared.execute(options);
    }
}
