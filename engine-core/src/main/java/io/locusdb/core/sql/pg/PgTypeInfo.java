package io.locusdb.core.sql.pg;

import io.locusdb.core.storage.type.ColumnType;
import java.util.Locale;

/**
 * PostgreSQL's built-in types as {@code pg_type} lists them (OIDs from PostgreSQL's {@code pg_type.dat}), and which
 * of them each LocusDB column type is.
 */
public enum PgTypeInfo {
    BOOL(16, "bool", 1, "B", 1000),
    BYTEA(17, "bytea", -1, "U", 1001),
    CHAR(18, "char", 1, "Z", 1002),
    NAME(19, "name", 64, "S", 1003),
    INT8(20, "int8", 8, "N", 1016),
    INT2(21, "int2", 2, "N", 1005),
    INT4(23, "int4", 4, "N", 1007),
    REGPROC(24, "regproc", 4, "N", 1008),
    TEXT(25, "text", -1, "S", 1009),
    OID(26, "oid", 4, "N", 1028),
    FLOAT4(700, "float4", 4, "N", 1021),
    FLOAT8(701, "float8", 8, "N", 1022),
    UNKNOWN(705, "unknown", -2, "X", 0),
    BPCHAR(1042, "bpchar", -1, "S", 1014),
    VARCHAR(1043, "varchar", -1, "S", 1015),
    DATE(1082, "date", 4, "D", 1182),
    TIME(1083, "time", 8, "D", 1183),
    TIMESTAMP(1114, "timestamp", 8, "D", 1115),
    TIMESTAMPTZ(1184, "timestamptz", 8, "D", 1185),
    INTERVAL(1186, "interval", 16, "T", 1187),
    NUMERIC(1700, "numeric", -1, "N", 1231),
    REGCLASS(2205, "regclass", 4, "N", 2210),
    UUID(2950, "uuid", 16, "U", 2951),
    JSONB(3802, "jsonb", -1, "U", 3807);

    private final long oid;
    private final String typeName;
    private final int length;
    private final String category;
    private final long arrayOid;

    PgTypeInfo(long oid, String typeName, int length, String category, long arrayOid) {
        this.oid = oid;
        this.typeName = typeName;
        this.length = length;
        this.category = category;
        this.arrayOid = arrayOid;
    }

    public long oid() {
        return oid;
    }

    public String typeName() {
        return typeName;
    }

    public int length() {
        return length;
    }

    public String category() {
        return category;
    }

    public long arrayOid() {
        return arrayOid;
    }

    public static PgTypeInfo of(ColumnType type) {
        return switch (type.kind()) {
            case BOOLEAN -> BOOL;
            case INTEGER -> INT4;
            case BIGINT -> INT8;
            case DOUBLE -> FLOAT8;
            case DECIMAL -> NUMERIC;
            case DATE -> DATE;
            case TIMESTAMP -> TIMESTAMP;
            case TIMESTAMP_TZ -> TIMESTAMPTZ;
            case VARCHAR -> VARCHAR;
            case CHAR -> BPCHAR;
            case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> INTERVAL;
        };
    }

    public static PgTypeInfo byOid(long oid) {
        for (PgTypeInfo t : values()) {
            if (t.oid == oid) {
                return t;
            }
        }
        return null;
    }

    /**
     * The type a name means, as {@code to_regtype} reads it: {@code int4}, {@code integer}, {@code pg_catalog.text},
     * {@code character varying}...; null for a name PostgreSQL would not know either here.
     */
    public static PgTypeInfo byName(String name) {
        String n = name.strip().toLowerCase(Locale.ROOT).replace("\"", "");
        if (n.startsWith("pg_catalog.")) {
            n = n.substring("pg_catalog.".length());
        }
        for (PgTypeInfo t : values()) {
            if (t.typeName.equals(n) || n.equals(formatType(t.oid, -1))) {
                return t;
            }
        }
        return switch (n) {
            case "int", "integer" -> INT4;
            case "smallint" -> INT2;
            case "bigint" -> INT8;
            case "real" -> FLOAT4;
            case "double precision", "float" -> FLOAT8;
            case "boolean" -> BOOL;
            case "character varying" -> VARCHAR;
            case "character", "char" -> BPCHAR;
            case "decimal" -> NUMERIC;
            default -> null;
        };
    }

    /** {@code atttypmod}: VARCHAR(n) and CHAR(n) are n + 4, NUMERIC(p,s) is ((p << 16) | s) + 4, else -1. */
    public static int typmod(ColumnType type) {
        return switch (type.kind()) {
            case VARCHAR -> type.length() == 0 ? -1 : type.length() + 4;
            case CHAR -> type.length() + 4;
            case DECIMAL -> ((type.precision() << 16) | type.scale()) + 4;
            default -> -1;
        };
    }

    /** The SQL standard's name, as {@code information_schema.columns.data_type} gives it. */
    public static String sqlName(ColumnType type) {
        return switch (type.kind()) {
            case BOOLEAN -> "boolean";
            case INTEGER -> "integer";
            case BIGINT -> "bigint";
            case DOUBLE -> "double precision";
            case DECIMAL -> "numeric";
            case DATE -> "date";
            case TIMESTAMP -> "timestamp without time zone";
            case TIMESTAMP_TZ -> "timestamp with time zone";
            case VARCHAR -> "character varying";
            case CHAR -> "character";
            case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> "interval";
        };
    }

    /** PostgreSQL's {@code format_type(oid, typmod)}; null for an unknown OID. */
    public static String formatType(long oid, int typmod) {
        PgTypeInfo t = byOid(oid);
        if (t == null) {
            return null;
        }
        return switch (t) {
            case BOOL -> "boolean";
            case INT2 -> "smallint";
            case INT4 -> "integer";
            case INT8 -> "bigint";
            case FLOAT4 -> "real";
            case FLOAT8 -> "double precision";
            case CHAR -> "\"char\"";
            case VARCHAR -> typmod > 4 ? "character varying(" + (typmod - 4) + ")" : "character varying";
            case BPCHAR -> typmod > 4 ? "character(" + (typmod - 4) + ")" : "bpchar";
            case NUMERIC -> typmod > 4 ? "numeric(" + ((typmod - 4) >> 16) + "," + ((typmod - 4) & 0xFFFF) + ")"
                    : "numeric";
            case TIMESTAMP -> "timestamp without time zone";
            case TIMESTAMPTZ -> "timestamp with time zone";
            case TIME -> "time without time zone";
            default -> t.typeName;
        };
    }
}
