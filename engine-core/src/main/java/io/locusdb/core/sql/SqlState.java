package io.locusdb.core.sql;

/** The SQLSTATE codes LocusDB reports (PostgreSQL's spelling of the SQL standard classes). */
public enum SqlState {
    SYNTAX_ERROR("42601"),
    UNDEFINED_TABLE("42P01"),
    UNDEFINED_COLUMN("42703"),
    AMBIGUOUS_COLUMN("42702"),
    GROUPING_ERROR("42803"),
    UNDEFINED_FUNCTION("42883"),
    DATATYPE_MISMATCH("42804"),
    INDETERMINATE_DATATYPE("42P18"),
    SEMANTIC_ERROR("42000"),
    FEATURE_NOT_SUPPORTED("0A000"),
    NUMERIC_OUT_OF_RANGE("22003"),
    DIVISION_BY_ZERO("22012"),
    INVALID_ARGUMENT_FOR_LOGARITHM("2201E"),
    INVALID_ARGUMENT_FOR_WIDTH_BUCKET("2201G"),
    DATETIME_FIELD_OVERFLOW("22008"),
    INVALID_DATETIME_FORMAT("22007"),
    CARDINALITY_VIOLATION("21000"),
    UNIQUE_VIOLATION("23505"),
    NOT_NULL_VIOLATION("23502"),
    /** A change refused because other objects (views, indexes, keys) depend on what it would remove. */
    DEPENDENT_OBJECTS_STILL_EXIST("2BP01"),
    INVALID_COLUMN_REFERENCE("42P10"),
    INVALID_CAST("22018"),
    INVALID_TEXT_REPRESENTATION("22P02"),
    INVALID_PARAMETER("22023"),
    INVALID_ESCAPE_SEQUENCE("22025"),
    INVALID_REGULAR_EXPRESSION("2201B"),
    DUPLICATE_TABLE("42P07"),
    DUPLICATE_COLUMN("42701"),
    /** A table definition that cannot hold, such as a primary key column that would allow NULL. */
    INVALID_TABLE_DEFINITION("42P16"),
    UNDEFINED_OBJECT("42704"),
    WRONG_OBJECT_TYPE("42809"),
    RESERVED_NAME("42939"),
    OUT_OF_MEMORY("53200"),
    PROGRAM_LIMIT_EXCEEDED("54000"),
    QUERY_CANCELED("57014"),
    INVALID_STATE("55000"),
    /** A statement that read a state which changed under it; running it again may succeed. */
    SERIALIZATION_FAILURE("40001"),
    INTERNAL_ERROR("XX000");

    private final String code;

    SqlState(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
