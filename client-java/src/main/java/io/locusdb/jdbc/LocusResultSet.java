package io.locusdb.jdbc;

import io.locusdb.protocol.ColumnDescription;
import io.locusdb.protocol.DecodedBatch;
import io.locusdb.protocol.Message;
import io.locusdb.protocol.Protocol;
import io.locusdb.protocol.WireType;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLType;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.Period;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A forward-only, read-only result. A server result streams: batches are read as {@link #next} reaches them, and
 * when the credit granted so far is used up the result asks for {@code fetchBatches} more with FETCH; it never
 * reads ahead of what the reader consumes beyond that credit. A client-side result (DatabaseMetaData) holds its
 * rows in one batch.
 *
 * <p>Getters convert as JDBC expects (any value to a string, numbers between numeric types with range checks,
 * numeric strings to numbers, DATE to Date/Timestamp/LocalDate); an impossible conversion is SQLSTATE 22018 and a
 * value out of the target's range 22003.
 */
final class LocusResultSet implements ResultSet, ColumnBatches {
    private final LocusStatement statement;
    private final LocusConnection connection;
    private final List<ColumnDescription> columns;
    private Map<String, Integer> labels;
    private int fetchBatches;
    private int credit;
    private boolean done;
    private boolean truncated;
    private DecodedBatch batch;
    private int index = -1;
    private DecodedBatch lookahead;
    private long row;
    private boolean afterLast;
    private boolean closed;
    private boolean wasNull;
    private SQLWarning warnings;

    /** A server result whose RESULT_HEADER was just read; the initial credit was sent with the request. */
    LocusResultSet(LocusStatement statement, LocusConnection connection, List<ColumnDescription> columns,
                   int fetchBatches) {
        this.statement = statement;
        this.connection = connection;
        this.columns = columns;
        this.fetchBatches = fetchBatches;
        this.credit = fetchBatches;
    }

    private LocusResultSet(List<ColumnDescription> columns, DecodedBatch rows) {
        this.statement = null;
        this.connection = null;
        this.columns = columns;
        this.done = true;
        this.lookahead = rows == null || rows.rows() == 0 ? null : rows;
    }

    /**
     * A client-side result (DatabaseMetaData); values are Boolean, Number, BigDecimal, LocalDate or String (any
     * object for string columns) or null.
     */
    static LocusResultSet clientSide(List<ColumnDescription> columns, List<Object[]> rows) {
        int n = rows.size();
        List<DecodedBatch.Column> out = new ArrayList<>();
        for (int c = 0; c < columns.size(); c++) {
            WireType type = columns.get(c).type();
            boolean[] nulls = new boolean[n];
            long[] longs = null;
            double[] doubles = null;
            String[] strings = null;
            switch (type.tag()) {
                case WireType.DOUBLE -> doubles = new double[n];
                case WireType.VARCHAR, WireType.CHAR -> strings = new String[n];
                default -> longs = new long[n];
            }
            for (int r = 0; r < n; r++) {
                Object v = rows.get(r)[c];
                if (v == null) {
                    nulls[r] = true;
                    if (strings != null) {
                        strings[r] = "";
                    }
                    continue;
                }
                switch (type.tag()) {
                    case WireType.BOOLEAN -> longs[r] = ((Boolean) v) ? 1 : 0;
                    case WireType.DECIMAL -> longs[r] = ((BigDecimal) v).setScale(type.scale(), RoundingMode.UNNECESSARY)
                            .unscaledValue().longValueExact();
                    case WireType.DATE -> longs[r] = ((LocalDate) v).toEpochDay();
                    case WireType.TIMESTAMP -> longs[r] = WireType.micros((LocalDateTime) v);
                    case WireType.TIMESTAMP_TZ -> longs[r] = WireType.micros((OffsetDateTime) v);
                    case WireType.DOUBLE -> doubles[r] = ((Number) v).doubleValue();
                    case WireType.VARCHAR, WireType.CHAR -> strings[r] = v.toString();
                    default -> longs[r] = ((Number) v).longValue();
                }
            }
            out.add(new DecodedBatch.Column(type, nulls, longs, doubles, strings));
        }
        return new LocusResultSet(List.copyOf(columns), new DecodedBatch(n, out));
    }

    // ---- streaming

    /** The next batch with rows, or null at the end; asks for credit only when the granted credit is used up. */
    private DecodedBatch readBatch() throws SQLException {
        return readBatch(true);
    }

    /**
     * The next batch with rows, or null at the end. With the credit used up, FETCH is sent unless bytes of a frame
     * are already here (the RESULT_END that may follow the last batch without more credit). A NOTICE in between (the
     * server shutting down) is no such frame: after one, whether to FETCH is decided again, or the driver would wait
     * for a batch the server only sends after a FETCH. {@code mayFetch} false: null instead of sending FETCH.
     */
    private DecodedBatch readBatch(boolean mayFetch) throws SQLException {
        while (!done) {
            if (credit == 0 && !connection.inputAvailable()) {
                if (!mayFetch) {
                    return null;
                }
                connection.send(new Message.Fetch(fetchBatches));
                credit = fetchBatches;
            }
            Message m = connection.receive(columns, credit == 0);
            if (m == null) {
                continue; // a NOTICE, now a warning on the connection
            }
            switch (m) {
                case Message.Batch b -> {
                    if (credit <= 0) {
                        throw connection.protocolViolation("a BATCH beyond the granted credit");
                    }
                    credit--;
                    if (b.batch().rows() > 0) {
                        return b.batch();
                    }
                }
                case Message.ResultEnd e -> {
                    truncated = e.truncated();
                    finish();
                }
                case Message.Error e -> {
                    finish();
                    throw Errors.fromServer(e);
                }
                default -> {
                    finish();
                    throw connection.protocolViolation("expected BATCH, RESULT_END or ERROR, got "
                            + Protocol.messageName(m.type()));
                }
            }
        }
        return null;
    }

    private void finish() throws SQLException {
        done = true;
        if (statement != null) {
            statement.resultEnded(this);
        }
        if (connection != null) {
            connection.resultFinished(this);
        }
    }

    /** Whether RESULT_END said max rows cut the result (or it was closed early). */
    boolean truncated() {
        return truncated;
    }

    @Override
    public boolean next() throws SQLException {
        checkOpen();
        if (batch != null && index + 1 < batch.rows()) {
            index++;
            row++;
            return true;
        }
        DecodedBatch b = lookahead != null ? lookahead : readBatch();
        lookahead = null;
        if (b == null) {
            afterLast = row > 0;
            batch = null;
            index = -1;
            return false;
        }
        batch = b;
        index = 0;
        row++;
        return true;
    }

    @Override
    public DecodedBatch nextBatch() throws SQLException {
        checkOpen();
        if (batch != null) {
            throw new SQLException("nextBatch() after next(): a result is read by rows or by batches",
                    "55000");
        }
        DecodedBatch b = lookahead != null ? lookahead : readBatch();
        lookahead = null;
        if (b == null) {
            afterLast = row > 0;
        } else {
            row += b.rows();
        }
        return b;
    }

    private boolean peek() throws SQLException {
        if (lookahead == null) {
            lookahead = readBatch();
        }
        return lookahead != null;
    }

    /**
     * Closes the result: if the server is still sending, CLOSE_RESULT and the rest is drained to RESULT_END, so
     * the session is free for the next statement.
     */
    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        batch = null;
        lookahead = null;
        try {
            if (!done && connection != null && !connection.isClosed() && !connection.isBroken()) {
                while (!done && credit == 0 && connection.inputAvailable()) {
                    try {
                        readBatch(false); // only RESULT_END, an ERROR or a NOTICE can be waiting with no credit
                    } catch (SQLException e) {
                        if (!done || connection.isBroken()) {
                            throw e;
                        }
                    }
                }
            }
            if (!done && connection != null && !connection.isClosed() && !connection.isBroken()) {
                connection.send(new Message.CloseResult());
                drain:
                while (true) {
                    Message m = connection.receive(columns);
                    switch (m) {
                        case Message.Batch b -> {
                        }
                        case Message.ResultEnd e -> {
                            break drain;
                        }
                        case Message.Error e -> {
                            break drain; // e.g. the cancel that raced the close: the result is over either way
                        }
                        default -> throw connection.protocolViolation("expected BATCH or RESULT_END after"
                                + " CLOSE_RESULT, got " + Protocol.messageName(m.type()));
                    }
                }
            }
        } finally {
            done = true;
            if (connection != null) {
                connection.resultFinished(this);
            }
            if (statement != null) {
                statement.resultClosed(this);
            }
        }
    }

    private void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("the result set is closed", Errors.OBJECT_CLOSED);
        }
    }

    // ---- cells

    private DecodedBatch.Column cell(int columnIndex) throws SQLException {
        checkOpen();
        if (columnIndex < 1 || columnIndex > columns.size()) {
            throw new SQLException("column index " + columnIndex + " is out of range 1.." + columns.size(),
                    Errors.INVALID_DESCRIPTOR_INDEX);
        }
        if (batch == null) {
            throw new SQLException(afterLast || done && row > 0 ? "no current row: the cursor is after the last row"
                    : "no current row: call next() first", Errors.INVALID_CURSOR_STATE);
        }
        DecodedBatch.Column c = batch.columns().get(columnIndex - 1);
        wasNull = c.isNull(index);
        return c;
    }

    private String typeOf(int columnIndex) {
        return columns.get(columnIndex - 1).type().toString();
    }

    @Override
    public boolean wasNull() throws SQLException {
        checkOpen();
        return wasNull;
    }

    @Override
    public String getString(int columnIndex) throws SQLException {
        DecodedBatch.Column c = cell(columnIndex);
        if (wasNull) {
            return null;
        }
        return switch (c.type().tag()) {
            case WireType.BOOLEAN -> c.longs()[index] != 0 ? "true" : "false";
            case WireType.INTEGER, WireType.BIGINT -> Long.toString(c.longs()[index]);
            case WireType.DOUBLE -> Double.toString(c.doubles()[index]);
            case WireType.DECIMAL -> BigDecimal.valueOf(c.longs()[index], c.type().scale()).toPlainString();
            case WireType.DATE -> LocalDate.ofEpochDay(c.longs()[index]).toString();
            case WireType.TIMESTAMP -> timestampText(c.longs()[index]);
            // An instant at UTC, as PostgreSQL shows it to a session whose TimeZone is UTC.
            case WireType.TIMESTAMP_TZ -> timestampText(c.longs()[index]) + "+00";
            case WireType.INTERVAL_DAY_TIME, WireType.INTERVAL_YEAR_MONTH -> c.type().intervalText(c.longs()[index]);
            default -> c.strings()[index];
        };
    }

    /** PostgreSQL's text of a timestamp ({@code 2024-03-01 13:45:07.25}), which the server's other protocol sends. */
    static String timestampText(long micros) {
        LocalDateTime t = WireType.dateTime(micros);
        String text = t.toLocalDate() + " " + String.format(Locale.ROOT, "%02d:%02d:%02d", t.getHour(),
                t.getMinute(), t.getSecond());
        int fraction = t.getNano() / 1000;
        if (fraction == 0) {
            return text;
        }
        String digits = String.format(Locale.ROOT, "%06d", fraction).replaceFirst("0+$", "");
        return text + "." + digits;
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        DecodedBatch.Column c = cell(columnIndex);
        if (wasNull) {
            return false;
        }
        switch (c.type().tag()) {
            case WireType.BOOLEAN:
                return c.longs()[index] != 0;
            case WireType.INTEGER:
            case WireType.BIGINT:
            case WireType.DECIMAL:
            case WireType.DOUBLE: {
                BigDecimal v = decimal(c, columnIndex);
                if (v.signum() == 0) {
                    return false;
                }
                if (v.compareTo(BigDecimal.ONE) == 0) {
                    return true;
                }
                throw Errors.conversion(typeOf(columnIndex) + " value " + v.toPlainString(), "BOOLEAN");
            }
            case WireType.VARCHAR:
            case WireType.CHAR: {
                String s = c.strings()[index].strip().toLowerCase(Locale.ROOT);
                return switch (s) {
                    case "true", "t", "1", "yes", "y", "on" -> true;
                    case "false", "f", "0", "no", "n", "off" -> false;
                    default -> throw Errors.conversion("'" + c.strings()[index] + "'", "BOOLEAN");
                };
            }
            default:
                throw Errors.conversion(typeOf(columnIndex), "BOOLEAN");
        }
    }

    private long integral(int columnIndex, String target, long min, long max) throws SQLException {
        DecodedBatch.Column c = cell(columnIndex);
        if (wasNull) {
            return 0;
        }
        long v;
        switch (c.type().tag()) {
            case WireType.BOOLEAN, WireType.INTEGER, WireType.BIGINT -> v = c.longs()[index];
            case WireType.DECIMAL -> v = BigDecimal.valueOf(c.longs()[index], c.type().scale()).longValue();
            case WireType.DOUBLE -> {
                double d = c.doubles()[index];
                if (Double.isNaN(d) || d >= 0x1p63 || d < -0x1p63) {
                    throw outOfRange(Double.toString(d), target);
                }
                v = (long) d;
            }
            case WireType.VARCHAR, WireType.CHAR -> {
                String s = c.strings()[index].strip();
                try {
                    v = Long.parseLong(s);
                } catch (NumberFormatException e) {
                    BigDecimal d = parseDecimal(s, target);
                    if (d.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0
                            || d.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                        throw outOfRange(s, target);
                    }
                    v = d.longValue();
                }
            }
            default -> throw Errors.conversion(typeOf(columnIndex), target);
        }
        if (v < min || v > max) {
            throw outOfRange(Long.toString(v), target);
        }
        return v;
    }

    private static SQLException outOfRange(String value, String target) {
        return new SQLException("value " + value + " is out of range for " + target, Errors.OUT_OF_RANGE);
    }

    private static BigDecimal parseDecimal(String s, String target) throws SQLException {
        if (s.length() > 200) {
            throw Errors.conversion("a string of " + s.length() + " characters", target);
        }
        try {
            return new BigDecimal(s.strip());
        } catch (NumberFormatException e) {
            throw Errors.conversion("'" + s + "'", target);
        }
    }

    /** The value as a BigDecimal; the cell is known to be non-null. */
    private BigDecimal decimal(DecodedBatch.Column c, int columnIndex) throws SQLException {
        return switch (c.type().tag()) {
            case WireType.BOOLEAN, WireType.INTEGER, WireType.BIGINT -> BigDecimal.valueOf(c.longs()[index]);
            case WireType.DECIMAL -> BigDecimal.valueOf(c.longs()[index], c.type().scale());
            case WireType.DOUBLE -> {
                double d = c.doubles()[index];
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    throw Errors.conversion("DOUBLE value " + d, "DECIMAL");
                }
                yield BigDecimal.valueOf(d);
            }
            case WireType.VARCHAR, WireType.CHAR -> parseDecimal(c.strings()[index], "DECIMAL");
            default -> throw Errors.conversion(typeOf(columnIndex), "DECIMAL");
        };
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        return (byte) integral(columnIndex, "TINYINT", Byte.MIN_VALUE, Byte.MAX_VALUE);
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        return (short) integral(columnIndex, "SMALLINT", Short.MIN_VALUE, Short.MAX_VALUE);
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        return (int) integral(columnIndex, "INTEGER", Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        return integral(columnIndex, "BIGINT", Long.MIN_VALUE, Long.MAX_VALUE);
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        return (float) getDouble(columnIndex);
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        DecodedBatch.Column c = cell(columnIndex);
        if (wasNull) {
            return 0;
        }
        return switch (c.type().tag()) {
            case WireType.BOOLEAN, WireType.INTEGER, WireType.BIGINT -> c.longs()[index];
            case WireType.DOUBLE -> c.doubles()[index];
            case WireType.DECIMAL -> BigDecimal.valueOf(c.longs()[index], c.type().scale()).doubleValue();
            case WireType.VARCHAR, WireType.CHAR -> {
                try {
                    yield Double.parseDouble(c.strings()[index].strip());
                } catch (NumberFormatException e) {
                    throw Errors.conversion("'" + c.strings()[index] + "'", "DOUBLE");
                }
            }
            default -> throw Errors.conversion(typeOf(columnIndex), "DOUBLE");
        };
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        BigDecimal v = getBigDecimal(columnIndex);
        return v == null ? null : v.setScale(scale, RoundingMode.HALF_UP);
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        DecodedBatch.Column c = cell(columnIndex);
        return wasNull ? null : decimal(c, columnIndex);
    }

    private LocalDate localDate(int columnIndex) throws SQLException {
        DecodedBatch.Column c = cell(columnIndex);
        if (wasNull) {
            return null;
        }
        return switch (c.type().tag()) {
            case WireType.DATE -> LocalDate.ofEpochDay(c.longs()[index]);
            case WireType.TIMESTAMP -> WireType.dateTime(c.longs()[index]).toLocalDate();
            // The instant's date in this JVM's zone, as java.sql.Date and Timestamp read it.
            case WireType.TIMESTAMP_TZ -> WireType.instant(c.longs()[index]).atZoneSameInstant(ZoneId.systemDefault())
                    .toLocalDate();
            case WireType.VARCHAR, WireType.CHAR -> {
                try {
                    yield LocalDate.parse(c.strings()[index].strip());
                } catch (DateTimeParseException e) {
                    throw Errors.conversion("'" + c.strings()[index] + "'", "DATE");
                }
            }
            default -> throw Errors.conversion(typeOf(columnIndex), "DATE");
        };
    }

    @Override
    public Date getDate(int columnIndex) throws SQLException {
        LocalDate d = localDate(columnIndex);
        return d == null ? null : Date.valueOf(d);
    }

    @Override
    public Date getDate(int columnIndex, Calendar cal) throws SQLException {
        LocalDate d = localDate(columnIndex);
        if (d == null || cal == null) {
            return d == null ? null : Date.valueOf(d);
        }
        return new Date(d.atStartOfDay(cal.getTimeZone().toZoneId()).toInstant().toEpochMilli());
    }

    @Override
    public Time getTime(int columnIndex) throws SQLException {
        DecodedBatch.Column c = cell(columnIndex);
        if (wasNull) {
            return null;
        }
        if (c.type().isString()) {
            try {
                return Time.valueOf(c.strings()[index].strip());
            } catch (IllegalArgumentException e) {
                throw Errors.conversion("'" + c.strings()[index] + "'", "TIME");
            }
        }
        throw Errors.conversion(typeOf(columnIndex), "TIME");
    }

    @Override
    public Time getTime(int columnIndex, Calendar cal) throws SQLException {
        return getTime(columnIndex);
    }

    @Override
    public Timestamp getTimestamp(int columnIndex) throws SQLException {
        DecodedBatch.Column c = cell(columnIndex);
        if (wasNull) {
            return null;
        }
        if (c.type().isString()) {
            String s = c.strings()[index].strip();
            try {
                return Timestamp.valueOf(s);
            } catch (IllegalArgumentException e) {
                try {
                    return Timestamp.valueOf(LocalDate.parse(s).atStartOfDay());
                } catch (DateTimeParseException e2) {
                    throw Errors.conversion("'" + s + "'", "TIMESTAMP");
                }
            }
        }
        if (c.type().tag() == WireType.TIMESTAMP) {
            return Timestamp.valueOf(WireType.dateTime(c.longs()[index]));
        }
        if (c.type().tag() == WireType.TIMESTAMP_TZ) {
            return Timestamp.from(WireType.instant(c.longs()[index]).toInstant());
        }
        LocalDate d = localDate(columnIndex);
        return Timestamp.valueOf(d.atStartOfDay());
    }

    @Override
    public Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        Timestamp t = getTimestamp(columnIndex);
        if (t == null || cal == null) {
            return t;
        }
        return Timestamp.from(t.toLocalDateTime().atZone(cal.getTimeZone().toZoneId()).toInstant());
    }

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        DecodedBatch.Column c = cell(columnIndex);
        if (wasNull) {
            return null;
        }
        return switch (c.type().tag()) {
            case WireType.BOOLEAN -> c.longs()[index] != 0;
            case WireType.INTEGER -> (int) c.longs()[index];
            case WireType.BIGINT -> c.longs()[index];
            case WireType.DOUBLE -> c.doubles()[index];
            case WireType.DECIMAL -> BigDecimal.valueOf(c.longs()[index], c.type().scale());
            case WireType.DATE -> Date.valueOf(LocalDate.ofEpochDay(c.longs()[index]));
            case WireType.TIMESTAMP -> Timestamp.valueOf(WireType.dateTime(c.longs()[index]));
            // JDBC 4.2's Java type for TIMESTAMP WITH TIME ZONE.
            case WireType.TIMESTAMP_TZ -> WireType.instant(c.longs()[index]);
            case WireType.INTERVAL_DAY_TIME, WireType.INTERVAL_YEAR_MONTH -> c.type().interval(c.longs()[index]);
            default -> c.strings()[index];
        };
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        if (type == null) {
            throw new SQLException("type is null", Errors.INVALID_PARAMETER);
        }
        Object v;
        if (type == Object.class) {
            v = getObject(columnIndex);
        } else if (type == String.class) {
            v = getString(columnIndex);
        } else if (type == Integer.class || type == int.class) {
            v = getInt(columnIndex);
        } else if (type == Long.class || type == long.class) {
            v = getLong(columnIndex);
        } else if (type == Short.class || type == short.class) {
            v = getShort(columnIndex);
        } else if (type == Byte.class || type == byte.class) {
            v = getByte(columnIndex);
        } else if (type == Boolean.class || type == boolean.class) {
            v = getBoolean(columnIndex);
        } else if (type == Double.class || type == double.class) {
            v = getDouble(columnIndex);
        } else if (type == Float.class || type == float.class) {
            v = getFloat(columnIndex);
        } else if (type == BigDecimal.class) {
            v = getBigDecimal(columnIndex);
        } else if (type == BigInteger.class) {
            BigDecimal d = getBigDecimal(columnIndex);
            v = d == null ? null : d.toBigInteger();
        } else if (type == LocalDate.class) {
            v = localDate(columnIndex);
        } else if (type == Date.class || type == java.util.Date.class) {
            v = getDate(columnIndex);
        } else if (type == Timestamp.class) {
            v = getTimestamp(columnIndex);
        } else if (type == LocalDateTime.class) {
            Timestamp t = getTimestamp(columnIndex);
            v = t == null ? null : t.toLocalDateTime();
        } else if (type == OffsetDateTime.class || type == Instant.class || type == ZonedDateTime.class) {
            Timestamp t = getTimestamp(columnIndex);
            Instant instant = t == null ? null : t.toInstant();
            DecodedBatch.Column c = cell(columnIndex);
            if (instant != null && c.type().tag() == WireType.TIMESTAMP) {
                // A wall-clock time has no zone: read as UTC, as PostgreSQL's driver does.
                instant = WireType.dateTime(c.longs()[index]).toInstant(ZoneOffset.UTC);
            }
            v = instant == null ? null : type == Instant.class ? instant : type == OffsetDateTime.class
                    ? instant.atOffset(ZoneOffset.UTC) : instant.atZone(ZoneOffset.UTC);
        } else if ((type == Duration.class || type == Period.class) && type.isInstance(getObject(columnIndex))) {
            v = getObject(columnIndex);
        } else {
            cell(columnIndex);
            throw Errors.conversion(typeOf(columnIndex), type.getName());
        }
        return wasNull ? null : (T) v;
    }

    @Override
    public Object getObject(int columnIndex, Map<String, Class<?>> map) throws SQLException {
        if (map != null && !map.isEmpty()) {
            throw Errors.unsupported("Type maps (user-defined types)");
        }
        return getObject(columnIndex);
    }

    @Override
    public Reader getCharacterStream(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new StringReader(s);
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        return getString(columnIndex);
    }

    @Override
    public Reader getNCharacterStream(int columnIndex) throws SQLException {
        return getCharacterStream(columnIndex);
    }

    @Override
    public byte[] getBytes(int columnIndex) throws SQLException {
        throw Errors.unsupported("Binary values (getBytes)");
    }

    @Override
    public InputStream getAsciiStream(int columnIndex) throws SQLException {
        throw Errors.unsupported("getAsciiStream");
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(int columnIndex) throws SQLException {
        throw Errors.unsupported("getUnicodeStream");
    }

    @Override
    public InputStream getBinaryStream(int columnIndex) throws SQLException {
        throw Errors.unsupported("getBinaryStream");
    }

    @Override
    public Ref getRef(int columnIndex) throws SQLException {
        throw Errors.unsupported("REF");
    }

    @Override
    public Blob getBlob(int columnIndex) throws SQLException {
        throw Errors.unsupported("BLOB");
    }

    @Override
    public Clob getClob(int columnIndex) throws SQLException {
        throw Errors.unsupported("CLOB");
    }

    @Override
    public Array getArray(int columnIndex) throws SQLException {
        throw Errors.unsupported("ARRAY");
    }

    @Override
    public URL getURL(int columnIndex) throws SQLException {
        throw Errors.unsupported("DATALINK (getURL)");
    }

    @Override
    public RowId getRowId(int columnIndex) throws SQLException {
        throw Errors.unsupported("ROWID");
    }

    @Override
    public NClob getNClob(int columnIndex) throws SQLException {
        throw Errors.unsupported("NCLOB");
    }

    @Override
    public SQLXML getSQLXML(int columnIndex) throws SQLException {
        throw Errors.unsupported("SQLXML");
    }

    // ---- by label

    @Override
    public int findColumn(String columnLabel) throws SQLException {
        checkOpen();
        if (labels == null) {
            labels = new HashMap<>();
            for (int i = columns.size() - 1; i >= 0; i--) {
                labels.put(columns.get(i).name().toLowerCase(Locale.ROOT), i + 1);
            }
        }
        Integer i = columnLabel == null ? null : labels.get(columnLabel.toLowerCase(Locale.ROOT));
        if (i == null) {
            List<String> names = new ArrayList<>();
            columns.forEach(c -> names.add(c.name()));
            throw new SQLException("no column '" + columnLabel + "' in the result (columns: " + String.join(", ",
                    names) + ")", "42703");
        }
        return i;
    }

    @Override
    public String getString(String columnLabel) throws SQLException {
        return getString(findColumn(columnLabel));
    }

    @Override
    public boolean getBoolean(String columnLabel) throws SQLException {
        return getBoolean(findColumn(columnLabel));
    }

    @Override
    public byte getByte(String columnLabel) throws SQLException {
        return getByte(findColumn(columnLabel));
    }

    @Override
    public short getShort(String columnLabel) throws SQLException {
        return getShort(findColumn(columnLabel));
    }

    @Override
    public int getInt(String columnLabel) throws SQLException {
        return getInt(findColumn(columnLabel));
    }

    @Override
    public long getLong(String columnLabel) throws SQLException {
        return getLong(findColumn(columnLabel));
    }

    @Override
    public float getFloat(String columnLabel) throws SQLException {
        return getFloat(findColumn(columnLabel));
    }

    @Override
    public double getDouble(String columnLabel) throws SQLException {
        return getDouble(findColumn(columnLabel));
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException {
        return getBigDecimal(findColumn(columnLabel), scale);
    }

    @Override
    public byte[] getBytes(String columnLabel) throws SQLException {
        return getBytes(findColumn(columnLabel));
    }

    @Override
    public Date getDate(String columnLabel) throws SQLException {
        return getDate(findColumn(columnLabel));
    }

    @Override
    public Time getTime(String columnLabel) throws SQLException {
        return getTime(findColumn(columnLabel));
    }

    @Override
    public Timestamp getTimestamp(String columnLabel) throws SQLException {
        return getTimestamp(findColumn(columnLabel));
    }

    @Override
    public InputStream getAsciiStream(String columnLabel) throws SQLException {
        return getAsciiStream(findColumn(columnLabel));
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(String columnLabel) throws SQLException {
        return getUnicodeStream(findColumn(columnLabel));
    }

    @Override
    public InputStream getBinaryStream(String columnLabel) throws SQLException {
        return getBinaryStream(findColumn(columnLabel));
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return getObject(findColumn(columnLabel));
    }

    @Override
    public Reader getCharacterStream(String columnLabel) throws SQLException {
        return getCharacterStream(findColumn(columnLabel));
    }

    @Override
    public BigDecimal getBigDecimal(String columnLabel) throws SQLException {
        return getBigDecimal(findColumn(columnLabel));
    }

    @Override
    public Object getObject(String columnLabel, Map<String, Class<?>> map) throws SQLException {
        return getObject(findColumn(columnLabel), map);
    }

    @Override
    public Ref getRef(String columnLabel) throws SQLException {
        return getRef(findColumn(columnLabel));
    }

    @Override
    public Blob getBlob(String columnLabel) throws SQLException {
        return getBlob(findColumn(columnLabel));
    }

    @Override
    public Clob getClob(String columnLabel) throws SQLException {
        return getClob(findColumn(columnLabel));
    }

    @Override
    public Array getArray(String columnLabel) throws SQLException {
        return getArray(findColumn(columnLabel));
    }

    @Override
    public Date getDate(String columnLabel, Calendar cal) throws SQLException {
        return getDate(findColumn(columnLabel), cal);
    }

    @Override
    public Time getTime(String columnLabel, Calendar cal) throws SQLException {
        return getTime(findColumn(columnLabel), cal);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException {
        return getTimestamp(findColumn(columnLabel), cal);
    }

    @Override
    public URL getURL(String columnLabel) throws SQLException {
        return getURL(findColumn(columnLabel));
    }

    @Override
    public RowId getRowId(String columnLabel) throws SQLException {
        return getRowId(findColumn(columnLabel));
    }

    @Override
    public NClob getNClob(String columnLabel) throws SQLException {
        return getNClob(findColumn(columnLabel));
    }

    @Override
    public String getNString(String columnLabel) throws SQLException {
        return getNString(findColumn(columnLabel));
    }

    @Override
    public SQLXML getSQLXML(String columnLabel) throws SQLException {
        return getSQLXML(findColumn(columnLabel));
    }

    @Override
    public Reader getNCharacterStream(String columnLabel) throws SQLException {
        return getNCharacterStream(findColumn(columnLabel));
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        return getObject(findColumn(columnLabel), type);
    }

    // ---- cursor and result properties

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return warnings;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        warnings = null;
    }

    @Override
    public String getCursorName() throws SQLException {
        throw Errors.unsupported("Named cursors");
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return new LocusResultSetMetaData(columns);
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        checkOpen();
        return row == 0 && batch == null && peek();
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        checkOpen();
        return afterLast;
    }

    @Override
    public boolean isFirst() throws SQLException {
        checkOpen();
        return batch != null && row == 1;
    }

    @Override
    public boolean isLast() throws SQLException {
        checkOpen();
        return batch != null && index == batch.rows() - 1 && !peek();
    }

    @Override
    public void beforeFirst() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public void afterLast() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean first() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean last() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public int getRow() throws SQLException {
        checkOpen();
        return batch == null ? 0 : (int) Math.min(Integer.MAX_VALUE, row);
    }

    @Override
    public boolean absolute(int row) throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean relative(int rows) throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean previous() throws SQLException {
        throw forwardOnly();
    }

    private static SQLFeatureNotSupportedException forwardOnly() {
        return new SQLFeatureNotSupportedException("the result set is forward-only (TYPE_FORWARD_ONLY): scrolling"
                + " is not supported by LocusDB", Errors.NOT_SUPPORTED);
    }

    private static SQLFeatureNotSupportedException readOnly() {
        return new SQLFeatureNotSupportedException("the result set is read-only (CONCUR_READ_ONLY): updates"
                + " through it are not supported by LocusDB", Errors.NOT_SUPPORTED);
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != FETCH_FORWARD) {
            throw Errors.unsupported("Fetch direction other than FETCH_FORWARD");
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return FETCH_FORWARD;
    }

    /** Changes the credit asked for by later FETCH messages. */
    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw new SQLException("fetch size " + rows + " is negative", Errors.INVALID_PARAMETER);
        }
        if (connection != null) {
            fetchBatches = LocusStatement.fetchBatches(rows);
        }
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchBatches * Protocol.MAX_BATCH_ROWS;
    }

    @Override
    public int getType() throws SQLException {
        checkOpen();
        return TYPE_FORWARD_ONLY;
    }

    @Override
    public int getConcurrency() throws SQLException {
        checkOpen();
        return CONCUR_READ_ONLY;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public boolean rowUpdated() throws SQLException {
        throw readOnly();
    }

    @Override
    public boolean rowInserted() throws SQLException {
        throw readOnly();
    }

    @Override
    public boolean rowDeleted() throws SQLException {
        throw readOnly();
    }

    @Override
    public void insertRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public void deleteRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public void refreshRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public void cancelRowUpdates() throws SQLException {
        throw readOnly();
    }

    @Override
    public void moveToInsertRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public void moveToCurrentRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public Statement getStatement() throws SQLException {
        checkOpen();
        return statement;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Errors.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    // ---- updates: the result set is read-only

    @Override
    public void updateNull(int p0) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBoolean(int p0, boolean p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateByte(int p0, byte p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateShort(int p0, short p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateInt(int p0, int p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateLong(int p0, long p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateFloat(int p0, float p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateDouble(int p0, double p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBigDecimal(int p0, BigDecimal p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateString(int p0, String p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBytes(int p0, byte[] p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateDate(int p0, Date p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateTime(int p0, Time p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateTimestamp(int p0, Timestamp p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(int p0, InputStream p1, int p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(int p0, InputStream p1, int p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(int p0, Reader p1, int p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(int p0, Object p1, int p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(int p0, Object p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNull(String p0) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBoolean(String p0, boolean p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateByte(String p0, byte p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateShort(String p0, short p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateInt(String p0, int p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateLong(String p0, long p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateFloat(String p0, float p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateDouble(String p0, double p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBigDecimal(String p0, BigDecimal p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateString(String p0, String p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBytes(String p0, byte[] p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateDate(String p0, Date p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateTime(String p0, Time p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateTimestamp(String p0, Timestamp p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(String p0, InputStream p1, int p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(String p0, InputStream p1, int p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(String p0, Reader p1, int p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(String p0, Object p1, int p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(String p0, Object p1) throws SQLException {
        throw readOnly();
    }


    @Override
    public void updateRef(int p0, Ref p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateRef(String p0, Ref p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(int p0, Blob p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(String p0, Blob p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(int p0, Clob p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(String p0, Clob p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateArray(int p0, Array p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateArray(String p0, Array p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateRowId(int p0, RowId p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateRowId(String p0, RowId p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNString(int p0, String p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNString(String p0, String p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(int p0, NClob p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(String p0, NClob p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateSQLXML(int p0, SQLXML p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateSQLXML(String p0, SQLXML p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNCharacterStream(int p0, Reader p1, long p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNCharacterStream(String p0, Reader p1, long p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(int p0, InputStream p1, long p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(int p0, InputStream p1, long p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(int p0, Reader p1, long p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(String p0, InputStream p1, long p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(String p0, InputStream p1, long p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(String p0, Reader p1, long p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(int p0, InputStream p1, long p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(String p0, InputStream p1, long p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(int p0, Reader p1, long p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(String p0, Reader p1, long p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(int p0, Reader p1, long p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(String p0, Reader p1, long p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNCharacterStream(int p0, Reader p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNCharacterStream(String p0, Reader p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(int p0, InputStream p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(int p0, InputStream p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(int p0, Reader p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateAsciiStream(String p0, InputStream p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBinaryStream(String p0, InputStream p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateCharacterStream(String p0, Reader p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(int p0, InputStream p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateBlob(String p0, InputStream p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(int p0, Reader p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateClob(String p0, Reader p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(int p0, Reader p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateNClob(String p0, Reader p1) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(int p0, Object p1, SQLType p2, int p3) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(String p0, Object p1, SQLType p2, int p3) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(int p0, Object p1, SQLType p2) throws SQLException {
        throw readOnly();
    }

    @Override
    public void updateObject(String p0, Object p1, SQLType p2) throws SQLException {
        throw readOnly();
    }
}
