package io.locusdb.server.pg;

import io.locusdb.core.sql.pg.PgTypeInfo;
import io.locusdb.core.storage.type.ColumnType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * The PostgreSQL types LocusDB values travel as, with their OIDs (fixed in PostgreSQL's {@code pg_type.dat}), and
 * the text and binary forms of parameter values. Result values are written by {@link PgValueWriter}.
 */
public enum PgType {
    BOOL(PgTypeInfo.BOOL),
    BYTEA(PgTypeInfo.BYTEA),
    NAME(PgTypeInfo.NAME),
    INT8(PgTypeInfo.INT8),
    INT2(PgTypeInfo.INT2),
    INT4(PgTypeInfo.INT4),
    TEXT(PgTypeInfo.TEXT),
    OID(PgTypeInfo.OID),
    FLOAT4(PgTypeInfo.FLOAT4),
    FLOAT8(PgTypeInfo.FLOAT8),
    UNKNOWN(PgTypeInfo.UNKNOWN),
    BPCHAR(PgTypeInfo.BPCHAR),
    VARCHAR(PgTypeInfo.VARCHAR),
    DATE(PgTypeInfo.DATE),
    TIMESTAMP(PgTypeInfo.TIMESTAMP),
    TIMESTAMPTZ(PgTypeInfo.TIMESTAMPTZ),
    INTERVAL(PgTypeInfo.INTERVAL),
    NUMERIC(PgTypeInfo.NUMERIC);

    /** Days from 1970-01-01 to PostgreSQL's epoch, 2000-01-01. */
    public static final long PG_EPOCH_DAY = 10_957;

    /** The catalog's description of the type (OID, length, name), shared with {@code pg_type}. */
    private final PgTypeInfo info;

    PgType(PgTypeInfo info) {
        this.info = info;
    }

    public int oid() {
        return (int) info.oid();
    }

    /** {@code typlen}: bytes of a fixed-width value, -1 for variable width, -2 for C strings. */
    public int length() {
        return info.length();
    }

    public String typeName() {
        return info.typeName();
    }

    /** The wire type of a column of this type. */
    public static PgType of(ColumnType type) {
        return byOid(PgTypeInfo.of(type).oid());
    }

    /** The type with this OID, or null when the wire does not carry it. */
    public static PgType byOid(long oid) {
        for (PgType t : values()) {
            if (t.info.oid() == oid) {
                return t;
            }
        }
        return null;
    }

    /** {@code atttypmod} of a column of this type. */
    public static int typmod(ColumnType type) {
        return PgTypeInfo.typmod(type);
    }

    // ---- parameters

    /**
     * A parameter value as the engine takes it (Boolean, Integer, Long, Double, BigDecimal, String, LocalDate).
     * {@code declared} is the type the client named (null when it left it to the server), {@code inferred} the
     * one the statement gives the parameter (null when unknown).
     */
    public static Object decodeParameter(byte[] value, boolean binary, PgType declared, ColumnType inferred,
                                         int index) {
        if (value == null) {
            return null;
        }
        PgType type = declared != null && declared != UNKNOWN ? declared
                : inferred != null ? of(inferred) : binary ? BYTEA : TEXT;
        try {
            return binary ? fromBinary(type, value, index) : fromText(type, new String(value, StandardCharsets.UTF_8));
        } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
            throw new PgDataException("22P02", "invalid input for parameter $" + index + " of type " + type.typeName()
                    + ": " + e.getMessage());
        }
    }

    private static Object fromText(PgType type, String text) {
        return switch (type) {
            case BOOL -> parseBool(text);
            case INT2, INT4 -> Integer.parseInt(text.strip());
            case INT8, OID -> Long.parseLong(text.strip());
            case FLOAT4, FLOAT8 -> parseDouble(text.strip());
            case NUMERIC -> new BigDecimal(text.strip());
            case DATE -> parseDate(text);
            default -> text;
        };
    }

    private static Object fromBinary(PgType type, byte[] v, int index) {
        ByteBuffer b = ByteBuffer.wrap(v);
        Object value = switch (type) {
            case BOOL -> width(v, 1, type, index) && v[0] != 0;
            case INT2 -> width(v, 2, type, index) ? (int) b.getShort() : null;
            case INT4 -> width(v, 4, type, index) ? b.getInt() : null;
            case OID -> width(v, 4, type, index) ? b.getInt() & 0xFFFF_FFFFL : null;
            case INT8 -> width(v, 8, type, index) ? b.getLong() : null;
            case FLOAT4 -> width(v, 4, type, index) ? (double) b.getFloat() : null;
            case FLOAT8 -> width(v, 8, type, index) ? b.getDouble() : null;
            case NUMERIC -> decodeNumeric(b, index);
            case DATE -> width(v, 4, type, index) ? LocalDate.ofEpochDay(b.getInt() + PG_EPOCH_DAY) : null;
            case TIMESTAMP -> width(v, 8, type, index) ? timestamp(b.getLong()) : null;
            // An instant: microseconds since 2000-01-01 at UTC.
            case TIMESTAMPTZ -> width(v, 8, type, index) ? LocalDateTime.of(2000, 1, 1, 0, 0)
                    .plusNanos(b.getLong() * 1000).atOffset(ZoneOffset.UTC) : null;
            case TEXT, VARCHAR, BPCHAR, NAME, UNKNOWN -> new String(v, StandardCharsets.UTF_8);
            case BYTEA -> throw new PgDataException("0A000", "parameter $" + index + ": bytea values are not"
                    + " supported; send it in text format or name its type");
            case INTERVAL -> throw new PgDataException("0A000", "parameter $" + index + ": interval parameters are"
                    + " not supported; bind the number of seconds (or months) and multiply an INTERVAL literal");
        };
        return value;
    }

    private static String timestamp(long micros) {
        return LocalDateTime.of(2000, 1, 1, 0, 0).plusNanos(micros * 1000).toString().replace('T', ' ');
    }

    private static boolean width(byte[] v, int bytes, PgType type, int index) {
        if (v.length != bytes) {
            throw new PgDataException("22P03", "incorrect binary data format in parameter $" + index + ": "
                    + type.typeName() + " takes " + bytes + " bytes, got " + v.length);
        }
        return true;
    }

    /** A date as drivers send it: {@code 2024-01-02}, possibly with a time and a zone after it (pgjdbc: "+00"). */
    static LocalDate parseDate(String text) {
        String t = text.strip();
        if (t.length() > 10 && (t.charAt(10) == ' ' || t.charAt(10) == 'T' || t.charAt(10) == '+')
                && t.substring(10).matches("[ T]?[0-9:.]*\\s*([-+]\\d{2}(:?\\d{2})?|Z)?")) {
            t = t.substring(0, 10);
        }
        return LocalDate.parse(t);
    }

    public static boolean parseBool(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "t", "true", "y", "yes", "on", "1" -> true;
            case "f", "false", "n", "no", "off", "0" -> false;
            default -> throw new PgDataException("22P02", "invalid input syntax for type boolean: \"" + text + "\"");
        };
    }

    private static double parseDouble(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "infinity", "+infinity", "inf", "+inf" -> Double.POSITIVE_INFINITY;
            case "-infinity", "-inf" -> Double.NEGATIVE_INFINITY;
            case "nan" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }

    /** NUMERIC's binary form: ndigits, weight, sign, dscale, then base-10000 digits. */
    static BigDecimal decodeNumeric(ByteBuffer b, int index) {
        if (b.remaining() < 8) {
            throw new PgDataException("22P03", "incorrect binary data format in parameter $" + index);
        }
        int ndigits = b.getShort() & 0xFFFF;
        int weight = b.getShort();
        int sign = b.getShort() & 0xFFFF;
        int dscale = b.getShort() & 0xFFFF;
        if (sign == 0xC000) {
            throw new PgDataException("22P02", "parameter $" + index + ": NaN is not a valid numeric value here");
        }
        if (b.remaining() != ndigits * 2 || (sign != 0 && sign != 0x4000)) {
            throw new PgDataException("22P03", "incorrect binary data format in parameter $" + index);
        }
        BigInteger unscaled = BigInteger.ZERO;
        BigInteger base = BigInteger.valueOf(10_000);
        for (int i = 0; i < ndigits; i++) {
            int digit = b.getShort();
            if (digit < 0 || digit > 9999) {
                throw new PgDataException("22P03", "invalid digit in numeric parameter $" + index);
            }
            unscaled = unscaled.multiply(base).add(BigInteger.valueOf(digit));
        }
        // The digits read are the value times 10000^(ndigits - 1 - weight).
        BigDecimal value = new BigDecimal(unscaled, 4 * (ndigits - 1 - weight));
        if (sign == 0x4000) {
            value = value.negate();
        }
        return value.setScale(dscale, RoundingMode.UNNECESSARY);
    }
}
