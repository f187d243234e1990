package io.locusdb.jdbc;

import io.locusdb.protocol.ColumnDescription;
import io.locusdb.protocol.WireType;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;

/** Result columns as PREPARED or RESULT_HEADER described them. Table and schema of a column are not known. */
final class LocusResultSetMetaData implements ResultSetMetaData {
    private final List<ColumnDescription> columns;

    LocusResultSetMetaData(List<ColumnDescription> columns) {
        this.columns = columns;
    }

    private ColumnDescription column(int index) throws SQLException {
        if (index < 1 || index > columns.size()) {
            throw new SQLException("column index " + index + " is out of range 1.." + columns.size(),
                    Errors.INVALID_DESCRIPTOR_INDEX);
        }
        return columns.get(index - 1);
    }

    private WireType type(int index) throws SQLException {
        return column(index).type();
    }

    @Override
    public int getColumnCount() {
        return columns.size();
    }

    @Override
    public boolean isAutoIncrement(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public boolean isCaseSensitive(int column) throws SQLException {
        return type(column).isString();
    }

    @Override
    public boolean isSearchable(int column) throws SQLException {
        column(column);
        return true;
    }

    @Override
    public boolean isCurrency(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public int isNullable(int column) throws SQLException {
        return column(column).nullable() ? columnNullable : columnNoNulls;
    }

    @Override
    public boolean isSigned(int column) throws SQLException {
        return JdbcTypes.signed(type(column));
    }

    @Override
    public int getColumnDisplaySize(int column) throws SQLException {
        return JdbcTypes.displaySize(type(column));
    }

    @Override
    public String getColumnLabel(int column) throws SQLException {
        return column(column).name();
    }

    @Override
    public String getColumnName(int column) throws SQLException {
        return column(column).name();
    }

    @Override
    public String getSchemaName(int column) throws SQLException {
        column(column);
        return "";
    }

    @Override
    public int getPrecision(int column) throws SQLException {
        return JdbcTypes.precision(type(column));
    }

    @Override
    public int getScale(int column) throws SQLException {
        return JdbcTypes.scale(type(column));
    }

    @Override
    public String getTableName(int column) throws SQLException {
        column(column);
        return "";
    }

    @Override
    public String getCatalogName(int column) throws SQLException {
        column(column);
        return "";
    }

    @Override
    public int getColumnType(int column) throws SQLException {
        return JdbcTypes.sqlType(type(column));
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
        return type(column).name();
    }

    @Override
    public boolean isReadOnly(int column) throws SQLException {
        column(column);
        return true;
    }

    @Override
    public boolean isWritable(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public boolean isDefinitelyWritable(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public String getColumnClassName(int column) throws SQLException {
        return JdbcTypes.className(type(column));
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Errors.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
