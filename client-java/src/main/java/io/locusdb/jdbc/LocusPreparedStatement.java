package io.locusdb.jdbc;

import io.locusdb.protocol.Message;
import io.locusdb.protocol.MessageCodec;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;

/**
 * A statement prepared once on the server (PREPARE → PREPARED with the parameter count and result columns) and
 * executed with EXECUTE as often as needed; closing it sends CLOSE_STATEMENT. Parameters travel as BOOLEAN,
 * INTEGER, BIGINT, DOUBLE, DECIMAL (text), DATE or VARCHAR values; the server converts them to the types the
 * statement needs.
 */
public final class LocusPreparedStatement extends LocusStatement implements PreparedStatement {
    private static final Object UNSET = new Object();

    private final String sql;
    private final Message.Prepared prepared;
    private final Object[] parameters;
    private final List<Object[]> parameterSets = new ArrayList<>();

    LocusPreparedStatement(LocusConnection connection, String sql, Message.Prepared prepared) {
        super(connection);
        this.sql = sql;
        this.prepared = prepared;
        this.parameters = new Object[prepared.parameterCount()];
        Arrays.fill(parameters, UNSET);
    }

    /** The SQL this statement was prepared from. */
    public String sql() {
        return sql;
    }

    private void set(int index, Object value) throws SQLException {
        checkOpen();
        if (index < 1 || index > parameters.length) {
            throw new SQLException("parameter index " + index + " is out of range: the statement has "
                    + parameters.length + " parameter(s)", Errors.INVALID_DESCRIPTOR_INDEX);
        }
        if (value instanceof BigDecimal d && plainLength(d) > MessageCodec.MAX_DECIMAL_TEXT) {
            throw new SQLException("parameter " + index + ": a DECIMAL of " + plainLength(d) + " characters written"
                    + " out is out of range (at most " + MessageCodec.MAX_DECIMAL_TEXT + ")", Errors.OUT_OF_RANGE);
        }
        parameters[index - 1] = value;
    }

    /** The length of {@code d.toPlainString()}, without building it (1E+999999999 would be a billion digits). */
    static long plainLength(BigDecimal d) {
        long sign = d.signum() < 0 ? 1 : 0;
        long precision = d.precision();
        long scale = d.scale();
        if (scale <= 0) {
            return d.signum() == 0 ? 1 : sign + precision - scale;
        }
        return scale >= precision ? sign + 2 + scale : sign + precision + 1;
    }

    private Message.Execute request() throws SQLException {
        List<Object> values = new ArrayList<>(parameters.length);
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i] == UNSET) {
                throw new SQLException("parameter " + (i + 1) + " is not set", Errors.UNSET_PARAMETER);
            }
            values.add(parameters[i]);
        }
        return new Message.Execute(prepared.statementId(), values, getMaxRows(), fetchBatches(), timeoutMillis());
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        if (!execute()) {
            throw new SQLException("the statement did not return a result set; use executeUpdate",
                    Errors.GENERAL);
        }
        return getResultSet();
    }

    @Override
    public int executeUpdate() throws SQLException {
        return (int) Math.min(Integer.MAX_VALUE, executeLargeUpdate());
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        if (execute()) {
            getResultSet().close();
            throw new SQLException("the statement returned a result set; use executeQuery", Errors.GENERAL);
        }
        return getLargeUpdateCount();
    }

    @Override
    public boolean execute() throws SQLException {
        checkOpen();
        return run(request());
    }

    @Override
    public void close() throws SQLException {
        if (isClosed()) {
            return;
        }
        try {
            super.close();
        } finally {
            connection.closeStatement(prepared.statementId());
        }
    }

    // ---- Statement methods that take SQL do not apply to a prepared statement

    private static SQLException notOnPrepared() {
        return new SQLException("this method takes SQL and cannot be called on a PreparedStatement",
                Errors.WRONG_STATE);
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        throw notOnPrepared();
    }

    // ---- setters

    @Override
    public void setNull(int parameterIndex, int sqlType) throws SQLException {
        set(parameterIndex, null);
    }

    @Override
    public void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
        set(parameterIndex, null);
    }

    @Override
    public void setBoolean(int parameterIndex, boolean x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setByte(int parameterIndex, byte x) throws SQLException {
        set(parameterIndex, (int) x);
    }

    @Override
    public void setShort(int parameterIndex, short x) throws SQLException {
        set(parameterIndex, (int) x);
    }

    @Override
    public void setInt(int parameterIndex, int x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setLong(int parameterIndex, long x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setFloat(int parameterIndex, float x) throws SQLException {
        set(parameterIndex, (double) x);
    }

    @Override
    public void setDouble(int parameterIndex, double x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setBigDecimal(int parameterIndex, BigDecimal x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setString(int parameterIndex, String x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setNString(int parameterIndex, String value) throws SQLException {
        set(parameterIndex, value);
    }

    @Override
    public void setDate(int parameterIndex, Date x) throws SQLException {
        set(parameterIndex, x == null ? null : x.toLocalDate());
    }

    @Override
    public void setDate(int parameterIndex, Date x, Calendar cal) throws SQLException {
        if (x == null || cal == null) {
            setDate(parameterIndex, x);
            return;
        }
        set(parameterIndex, x.toInstant().atZone(cal.getTimeZone().toZoneId()).toLocalDate());
    }

    @Override
    public void clearParameters() throws SQLException {
        checkOpen();
        Arrays.fill(parameters, UNSET);
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType) throws SQLException {
        set(parameterIndex, convert(x, targetSqlType));
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        Object v = convert(x, targetSqlType);
        if (v instanceof BigDecimal d && (targetSqlType == Types.DECIMAL || targetSqlType == Types.NUMERIC)) {
            v = d.setScale(scaleOrLength, java.math.RoundingMode.HALF_UP);
        }
        set(parameterIndex, v);
    }

    @Override
    public void setObject(int parameterIndex, Object x) throws SQLException {
        set(parameterIndex, natural(x));
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType) throws SQLException {
        if (targetSqlType == null || targetSqlType.getVendorTypeNumber() == null) {
            throw Errors.unsupported("SQLType " + targetSqlType);
        }
        setObject(parameterIndex, x, targetSqlType.getVendorTypeNumber());
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType, int scaleOrLength)
            throws SQLException {
        if (targetSqlType == null || targetSqlType.getVendorTypeNumber() == null) {
            throw Errors.unsupported("SQLType " + targetSqlType);
        }
        setObject(parameterIndex, x, targetSqlType.getVendorTypeNumber(), scaleOrLength);
    }

    /** A Java value as one of the protocol's parameter kinds. */
    private static Object natural(Object x) throws SQLException {
        return switch (x) {
            case null -> null;
            case Boolean b -> b;
            case Integer i -> i;
            case Short s -> (int) s;
            case Byte b -> (int) b;
            case Long l -> l;
            case Double d -> d;
            case Float f -> (double) f;
            case BigDecimal d -> d;
            case BigInteger i -> new BigDecimal(i);
            case String s -> s;
            case Character c -> c.toString();
            case Date d -> d.toLocalDate();
            case LocalDate d -> d;
            case Timestamp t -> t.toLocalDateTime();
            case LocalDateTime t -> t;
            case OffsetDateTime t -> t;
            case ZonedDateTime t -> t.toOffsetDateTime();
            case Instant t -> t.atOffset(ZoneOffset.UTC);
            case java.util.Date d -> new Timestamp(d.getTime()).toLocalDateTime();
            default -> throw Errors.unsupported("Parameters of type " + x.getClass().getName());
        };
    }

    /** {@code x} converted to the JDBC type asked for. */
    private static Object convert(Object x, int sqlType) throws SQLException {
        Object v = natural(x);
        if (v == null) {
            return null;
        }
        try {
            return switch (sqlType) {
                case Types.BOOLEAN, Types.BIT -> switch (v) {
                    case Boolean b -> b;
                    case Number n -> new BigDecimal(n.toString()).signum() != 0;
                    case String s -> Boolean.parseBoolean(s.strip()) || s.strip().equals("1");
                    default -> throw Errors.conversion(v.getClass().getSimpleName(), "BOOLEAN");
                };
                case Types.TINYINT, Types.SMALLINT, Types.INTEGER -> decimalOf(v).intValueExact();
                case Types.BIGINT -> decimalOf(v).longValueExact();
                case Types.DOUBLE, Types.FLOAT, Types.REAL -> decimalOf(v).doubleValue();
                case Types.DECIMAL, Types.NUMERIC -> decimalOf(v);
                case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR,
                     Types.LONGNVARCHAR -> v instanceof BigDecimal d ? d.toPlainString() : v.toString();
                case Types.DATE -> switch (v) {
                    case LocalDate d -> d;
                    case LocalDateTime t -> t.toLocalDate();
                    case String s -> LocalDate.parse(s.strip());
                    default -> throw Errors.conversion(v.getClass().getSimpleName(), "DATE");
                };
                case Types.TIMESTAMP -> switch (v) {
                    case LocalDateTime t -> t;
                    case LocalDate d -> d.atStartOfDay();
                    case String s -> Timestamp.valueOf(s.strip()).toLocalDateTime();
                    default -> throw Errors.conversion(v.getClass().getSimpleName(), "TIMESTAMP");
                };
                case Types.TIMESTAMP_WITH_TIMEZONE -> switch (v) {
                    case OffsetDateTime t -> t;
                    // A wall-clock time: the server reads it in the session's zone.
                    case LocalDateTime t -> t;
                    case String s -> s;
                    default -> throw Errors.conversion(v.getClass().getSimpleName(), "TIMESTAMP WITH TIME ZONE");
                };
                default -> throw Errors.unsupported("Target SQL type " + sqlType);
            };
        } catch (ArithmeticException e) {
            throw new SQLException("value " + v + " does not fit the target type: " + e.getMessage(),
                    Errors.OUT_OF_RANGE);
        } catch (IllegalArgumentException | java.time.format.DateTimeParseException e) {
            throw new SQLException("cannot convert '" + v + "' to SQL type " + sqlType, Errors.INVALID_CONVERSION);
        }
    }

    private static BigDecimal decimalOf(Object v) throws SQLException {
        return switch (v) {
            case BigDecimal d -> d;
            case Double d -> BigDecimal.valueOf(d);
            case Number n -> BigDecimal.valueOf(n.longValue());
            case Boolean b -> b ? BigDecimal.ONE : BigDecimal.ZERO;
            case String s -> new BigDecimal(s.strip());
            default -> throw Errors.conversion(v.getClass().getSimpleName(), "a number");
        };
    }

    @Override
    public void setBytes(int parameterIndex, byte[] x) throws SQLException {
        throw Errors.unsupported("Binary parameters");
    }

    @Override
    public void setTime(int parameterIndex, Time x) throws SQLException {
        throw Errors.unsupported("TIME parameters (LocusDB has no TIME type)");
    }

    @Override
    public void setTime(int parameterIndex, Time x, Calendar cal) throws SQLException {
        throw Errors.unsupported("TIME parameters (LocusDB has no TIME type)");
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x) throws SQLException {
        set(parameterIndex, x == null ? null : x.toLocalDateTime());
    }

    /** The instant {@code x} as a wall-clock time in {@code cal}'s time zone (LocusDB's TIMESTAMP has none). */
    @Override
    public void setTimestamp(int parameterIndex, Timestamp x, Calendar cal) throws SQLException {
        if (x == null || cal == null) {
            setTimestamp(parameterIndex, x);
            return;
        }
        set(parameterIndex, LocalDateTime.ofInstant(x.toInstant(), cal.getTimeZone().toZoneId()));
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, int length) throws SQLException {
        throw Errors.unsupported("Stream parameters");
    }

    @Override
    @Deprecated
    public void setUnicodeStream(int parameterIndex, InputStream x, int length) throws SQLException {
        throw Errors.unsupported("Stream parameters");
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, int length) throws SQLException {
        throw Errors.unsupported("Stream parameters");
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, int length) throws SQLException {
        throw Errors.unsupported("Stream parameters");
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, long length) throws SQLException {
        throw Errors.unsupported("Stream parameters");
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, long length) throws SQLException {
        throw Errors.unsupported("Stream parameters");
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        throw Errors.unsupported("Stream parameters");
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x) throws SQLException {
        throw Errors.unsupported("Stream parameters");
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x) throws SQLException {
        throw Errors.unsupported("Stream parameters");
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        throw Errors.unsupported("Stream parameters");
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value, long length) throws SQLException {
        throw Errors.unsupported("Stream parameters");
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value) throws SQLException {
        throw Errors.unsupported("Stream parameters");
    }

    @Override
    public void setRef(int parameterIndex, Ref x) throws SQLException {
        throw Errors.unsupported("REF parameters");
    }

    @Override
    public void setBlob(int parameterIndex, Blob x) throws SQLException {
        throw Errors.unsupported("BLOB parameters");
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream, long length) throws SQLException {
        throw Errors.unsupported("BLOB parameters");
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream) throws SQLException {
        throw Errors.unsupported("BLOB parameters");
    }

    @Override
    public void setClob(int parameterIndex, Clob x) throws SQLException {
        throw Errors.unsupported("CLOB parameters");
    }

    @Override
    public void setClob(int parameterIndex, Reader reader, long length) throws SQLException {
        throw Errors.unsupported("CLOB parameters");
    }

    @Override
    public void setClob(int parameterIndex, Reader reader) throws SQLException {
        throw Errors.unsupported("CLOB parameters");
    }

    @Override
    public void setNClob(int parameterIndex, NClob value) throws SQLException {
        throw Errors.unsupported("NCLOB parameters");
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader, long length) throws SQLException {
        throw Errors.unsupported("NCLOB parameters");
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader) throws SQLException {
        throw Errors.unsupported("NCLOB parameters");
    }

    @Override
    public void setArray(int parameterIndex, Array x) throws SQLException {
        throw Errors.unsupported("ARRAY parameters");
    }

    @Override
    public void setURL(int parameterIndex, URL x) throws SQLException {
        throw Errors.unsupported("DATALINK parameters");
    }

    @Override
    public void setRowId(int parameterIndex, RowId x) throws SQLException {
        throw Errors.unsupported("ROWID parameters");
    }

    @Override
    public void setSQLXML(int parameterIndex, SQLXML xmlObject) throws SQLException {
        throw Errors.unsupported("SQLXML parameters");
    }

    /** Adds the parameters set now to the batch (every parameter must be set). */
    @Override
    public void addBatch() throws SQLException {
        checkOpen();
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i] == UNSET) {
                throw new SQLException("parameter " + (i + 1) + " is not set", Errors.UNSET_PARAMETER);
            }
        }
        parameterSets.add(parameters.clone());
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        throw new SQLException("addBatch(String) cannot be called on a PreparedStatement: set the parameters and"
                + " call addBatch()", Errors.GENERAL);
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        parameterSets.clear();
    }

    @Override
    void clearBatchEntries() {
        parameterSets.clear();
    }

    /** Runs the statement once per parameter set added, in order; the parameters set last stay set. */
    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        List<Object[]> sets = List.copyOf(parameterSets);
        Object[] current = parameters.clone();
        try {
            return runBatch(sets.size(), i -> {
                System.arraycopy(sets.get(i), 0, parameters, 0, parameters.length);
                if (execute()) {
                    getResultSet().close();
                    throw new SQLException("a batch statement returned a result set: batches take updates only",
                            Errors.GENERAL);
                }
                return getLargeUpdateCount();
            });
        } finally {
            System.arraycopy(current, 0, parameters, 0, parameters.length);
        }
    }

    /** The result columns from PREPARED; null for a statement without a result (DDL, DML). */
    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return prepared.columns().isEmpty() ? null : new LocusResultSetMetaData(prepared.columns());
    }

    /** The parameter count; the server does not say the parameters' types, so they read as VARCHAR "unknown". */
    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        checkOpen();
        return new ParameterMetaData() {
            private void check(int param) throws SQLException {
                if (param < 1 || param > parameters.length) {
                    throw new SQLException("parameter index " + param + " is out of range 1.." + parameters.length,
                            Errors.INVALID_DESCRIPTOR_INDEX);
                }
            }

            public int getParameterCount() {
                return parameters.length;
            }

            public int isNullable(int param) throws SQLException {
                check(param);
                return parameterNullableUnknown;
            }

            public boolean isSigned(int param) throws SQLException {
                check(param);
                return false;
            }

            public int getPrecision(int param) throws SQLException {
                check(param);
                return 0;
            }

            public int getScale(int param) throws SQLException {
                check(param);
                return 0;
            }

            public int getParameterType(int param) throws SQLException {
                check(param);
                return Types.VARCHAR;
            }

            public String getParameterTypeName(int param) throws SQLException {
                check(param);
                return "unknown";
            }

            public String getParameterClassName(int param) throws SQLException {
                check(param);
                return Object.class.getName();
            }

            public int getParameterMode(int param) throws SQLException {
                check(param);
                return parameterModeIn;
            }

            public <T> T unwrap(Class<T> iface) throws SQLException {
                if (iface.isInstance(this)) {
                    return iface.cast(this);
                }
                throw new SQLException("not a wrapper for " + iface.getName(), Errors.GENERAL);
            }

            public boolean isWrapperFor(Class<?> iface) {
                return iface.isInstance(this);
            }
        };
    }
}
