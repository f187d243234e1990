package io.locusdb.core.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlBasicFunction;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.fun.SqlBasicAggFunction;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.util.Optionality;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The standard operators with LocusDB's typing where it differs from Calcite's: {@code ROUND(decimal, k)} for a
 * constant k below the argument's scale is DECIMAL(p, k), as in PostgreSQL and DuckDB ({@code ROUND(2805.28, 0)}
 * is 2805), instead of keeping the argument's type (2805.00) — which also could not hold a value that rounds up
 * past its precision ({@code ROUND(9.6789, 0)} is 10).
 */
final class LocusOperators {
    /** {@code octet_length(text)}: its bytes in UTF-8 (the standard's function takes binary strings only). */
    static final SqlOperator OCTET_LENGTH = stringFunction("OCTET_LENGTH", ReturnTypes.explicit(SqlTypeName.INTEGER)
            .andThen(SqlTypeTransforms.TO_NULLABLE), OperandTypes.STRING);

    static final SqlOperator ROUND = SqlBasicFunction.create("ROUND",
            ReturnTypes.cascade(LocusOperators::roundType, SqlTypeTransforms.TO_NULLABLE),
            OperandTypes.NUMERIC.or(OperandTypes.NUMERIC_INT32), SqlFunctionCategory.NUMERIC)
            .withOperandTypeInference(LocusOperators::roundOperandTypes);

    /**
     * {@code PERCENTILE_CONT(f) WITHIN GROUP (ORDER BY x)} typed as PostgreSQL types it, a DOUBLE (an interpolated
     * value between two of x's), where Calcite's keeps x's type and would cut 2.5 to 2 over integers.
     */
    static final SqlAggFunction PERCENTILE_CONT = SqlBasicAggFunction.create(SqlKind.PERCENTILE_CONT,
                    ReturnTypes.DOUBLE.andThen(SqlTypeTransforms.FORCE_NULLABLE),
                    OperandTypes.UNIT_INTERVAL_NUMERIC_LITERAL)
            .withFunctionType(SqlFunctionCategory.SYSTEM)
            .withGroupOrder(Optionality.MANDATORY)
            .withPercentile(true);

    /** DuckDB's {@code MEDIAN(x)}: {@code PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY x)}, a DOUBLE. */
    static final SqlAggFunction MEDIAN = SqlBasicAggFunction.create("MEDIAN", SqlKind.OTHER_FUNCTION,
            ReturnTypes.DOUBLE.andThen(SqlTypeTransforms.FORCE_NULLABLE), OperandTypes.NUMERIC);

    /** {@code SUM(interval)}: an interval of the argument's family (see {@code LocusValidator}). */
    static final SqlAggFunction INTERVAL_SUM = SqlBasicAggFunction.create("INTERVAL_SUM", SqlKind.SUM,
            ReturnTypes.ARG0.andThen(SqlTypeTransforms.FORCE_NULLABLE), OperandTypes.INTERVAL);

    /** {@code AVG(interval)}: rounded to the microsecond, as PostgreSQL does. */
    static final SqlAggFunction INTERVAL_AVG = SqlBasicAggFunction.create("INTERVAL_AVG", SqlKind.AVG,
            ReturnTypes.ARG0.andThen(SqlTypeTransforms.FORCE_NULLABLE), OperandTypes.INTERVAL);

    /** {@code date + integer} (either order): the date that many days later (see {@code LocusValidator}). */
    static final SqlOperator DATE_PLUS_DAYS = SqlBasicFunction.create("DATE_PLUS_DAYS",
            ReturnTypes.explicit(SqlTypeName.DATE).andThen(SqlTypeTransforms.TO_NULLABLE), OperandTypes.ANY_ANY,
            SqlFunctionCategory.TIMEDATE);

    /** {@code date - integer}: the date that many days earlier. */
    static final SqlOperator DATE_MINUS_DAYS = SqlBasicFunction.create("DATE_MINUS_DAYS",
            ReturnTypes.explicit(SqlTypeName.DATE).andThen(SqlTypeTransforms.TO_NULLABLE), OperandTypes.ANY_ANY,
            SqlFunctionCategory.TIMEDATE);

    /** {@code date - date}: the days from the second to the first, an INTEGER as in PostgreSQL. */
    static final SqlOperator DATE_DIFFERENCE = SqlBasicFunction.create("DATE_DIFFERENCE",
            ReturnTypes.explicit(SqlTypeName.INTEGER).andThen(SqlTypeTransforms.TO_NULLABLE), OperandTypes.ANY_ANY,
            SqlFunctionCategory.TIMEDATE);

    /** {@code timestamp - timestamp}: the interval between them, of days and time, as in PostgreSQL. */
    static final SqlOperator TIMESTAMP_DIFFERENCE = SqlBasicFunction.create("TIMESTAMP_DIFFERENCE",
            ReturnTypes.explicit(types -> types.createSqlIntervalType(new SqlIntervalQualifier(TimeUnit.DAY,
                    TimeUnit.SECOND, SqlParserPos.ZERO))).andThen(SqlTypeTransforms.TO_NULLABLE), OperandTypes.ANY_ANY,
            SqlFunctionCategory.TIMEDATE);

    /**
     * {@code CAST(x AS regclass)} on an expression: the OID of the relation a text names, or the number itself
     * (LocusDB's relation OIDs are a function of the qualified name, see {@code PgOids}).
     */
    static final SqlOperator REGCLASS = SqlBasicFunction.create("PG_REGCLASS", ReturnTypes.explicit(SqlTypeName.BIGINT)
            .andThen(SqlTypeTransforms.TO_NULLABLE), OperandTypes.ANY, SqlFunctionCategory.SYSTEM);

    /**
     * PostgreSQL's functions beyond the standard's that the engine computes: BOOL_AND and BOOL_OR (as MIN and MAX of
     * booleans), STARTS_WITH, STRING_AGG, ARRAY_AGG, ILIKE and NOT ILIKE, SUBSTR (SUBSTRING's other name).
     */
    private static final List<SqlOperator> LIBRARY = libraryOperators();

    /**
     * PostgreSQL's catalog functions that tools call on connect ({@code format_type}, {@code pg_table_is_visible},
     * {@code has_table_privilege}...); the compiler computes them from the catalog LocusDB has (see
     * {@code PgCatalogTables}).
     */
    private static List<SqlOperator> libraryOperators() {
        List<SqlOperator> all = new ArrayList<>(List.of(SqlLibraryOperators.BOOL_AND, SqlLibraryOperators.BOOL_OR,
                SqlLibraryOperators.STARTS_WITH, SqlLibraryOperators.STRING_AGG, SqlLibraryOperators.ARRAY_AGG,
                SqlLibraryOperators.ILIKE, SqlLibraryOperators.NOT_ILIKE, SqlLibraryOperators.SUBSTR_POSTGRESQL));
        for (String name : List.of("FORMAT_TYPE", "PG_GET_USERBYID", "OBJ_DESCRIPTION", "COL_DESCRIPTION",
                "SHOBJ_DESCRIPTION", "PG_GET_EXPR", "PG_ENCODING_TO_CHAR", "PG_GET_VIEWDEF", "PG_GET_INDEXDEF",
                "PG_GET_CONSTRAINTDEF", "PG_GET_FUNCTIONDEF", "PG_ADVISORY_UNLOCK_ALL",
                "PG_GET_STATISTICSOBJDEF_COLUMNS", "PG_GET_TRIGGERDEF", "PG_GET_RULEDEF", "PG_GET_PARTKEYDEF",
                "PG_GET_SERIAL_SEQUENCE")) {
            all.add(SqlBasicFunction.create(name, ReturnTypes.explicit(SqlTypeName.VARCHAR)
                    .andThen(SqlTypeTransforms.FORCE_NULLABLE), OperandTypes.VARIADIC, SqlFunctionCategory.SYSTEM));
        }
        all.add(SqlBasicFunction.create("QUOTE_IDENT", ReturnTypes.explicit(SqlTypeName.VARCHAR)
                .andThen(SqlTypeTransforms.TO_NULLABLE), OperandTypes.STRING, SqlFunctionCategory.STRING)
                .withOperandTypeInference(InferTypes.VARCHAR_1024));
        all.add(SqlBasicFunction.create("TO_REGTYPE", ReturnTypes.explicit(SqlTypeName.BIGINT)
                .andThen(SqlTypeTransforms.FORCE_NULLABLE), OperandTypes.STRING, SqlFunctionCategory.SYSTEM)
                .withOperandTypeInference(InferTypes.VARCHAR_1024));
        for (String name : List.of("PG_TABLE_IS_VISIBLE", "PG_TYPE_IS_VISIBLE", "PG_FUNCTION_IS_VISIBLE",
                "HAS_TABLE_PRIVILEGE", "HAS_SCHEMA_PRIVILEGE", "HAS_DATABASE_PRIVILEGE", "HAS_COLUMN_PRIVILEGE",
                "HAS_ANY_COLUMN_PRIVILEGE", "HAS_FUNCTION_PRIVILEGE", "HAS_SEQUENCE_PRIVILEGE", "PG_IS_IN_RECOVERY",
                "PG_RELATION_IS_PUBLISHABLE")) {
            all.add(SqlBasicFunction.create(name, ReturnTypes.explicit(SqlTypeName.BOOLEAN), OperandTypes.VARIADIC,
                    SqlFunctionCategory.SYSTEM));
        }
        all.add(SqlBasicFunction.create("FORMAT", ReturnTypes.explicit(SqlTypeName.VARCHAR)
                .andThen(SqlTypeTransforms.FORCE_NULLABLE), OperandTypes.VARIADIC, SqlFunctionCategory.STRING));
        all.add(REGCLASS);
        all.add(SqlBasicFunction.create("_PG_EXPANDARRAY", LocusOperators::expandedArrayRow, OperandTypes.ANY,
                SqlFunctionCategory.SYSTEM));
        all.addAll(arrayOperators());
        all.add(GenerateSeries.INSTANCE);
        all.addAll(scalarOperators());
        // Found by name when the validator types the calls it put in place of + and -.
        all.addAll(List.of(DATE_PLUS_DAYS, DATE_MINUS_DAYS, DATE_DIFFERENCE, TIMESTAMP_DIFFERENCE, INTERVAL_SUM,
                INTERVAL_AVG));
        all.add(MEDIAN);
        return List.copyOf(all);
    }

    /**
     * PostgreSQL's scalar functions analysts write that the standard lacks: {@code length}, {@code greatest} and
     * {@code least} (NULLs ignored), {@code split_part}, {@code regexp_replace(s, pattern, replacement[, flags])},
     * {@code date_trunc('unit', date | timestamp)} (a DATE for a DATE), and {@code now()}.
     */
    private static List<SqlOperator> scalarOperators() {
        List<SqlOperator> all = new ArrayList<>(List.of(SqlLibraryOperators.LENGTH, SqlLibraryOperators.SPLIT_PART));
        // Not Calcite's GREATEST and LEAST: those are NULL when any argument is (BigQuery's and Oracle's rule).
        for (String name : List.of("GREATEST", "LEAST")) {
            all.add(SqlBasicFunction.create(name, ReturnTypes.LEAST_RESTRICTIVE.andThen(SqlTypeTransforms.TO_NULLABLE),
                    OperandTypes.SAME_VARIADIC, SqlFunctionCategory.SYSTEM));
        }
        all.add(SqlBasicFunction.create("REGEXP_REPLACE", ReturnTypes.explicit(SqlTypeName.VARCHAR)
                        .andThen(SqlTypeTransforms.TO_NULLABLE),
                OperandTypes.STRING_STRING_STRING.or(OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.STRING,
                        SqlTypeFamily.STRING, SqlTypeFamily.STRING)), SqlFunctionCategory.STRING)
                .withOperandTypeInference(InferTypes.VARCHAR_1024));
        // A DATE for a DATE (LocusDB's choice: PostgreSQL makes it a timestamp), a TIMESTAMP for a TIMESTAMP.
        all.add(SqlBasicFunction.create("DATE_TRUNC", ReturnTypes.ARG1_NULLABLE,
                OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.DATE).or(
                        OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.TIMESTAMP)),
                SqlFunctionCategory.TIMEDATE));
        // DuckDB's date_diff('unit', start, end): the unit boundaries from start to end, a BIGINT. The parser reads
        // DATE_DIFF and DATEDIFF as other dialects' forms, so TimestampLiterals renames DuckDB's to this one.
        all.add(SqlBasicFunction.create(TimestampLiterals.DATE_DIFF, ReturnTypes.explicit(SqlTypeName.BIGINT)
                        .andThen(SqlTypeTransforms.TO_NULLABLE),
                OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.DATETIME, SqlTypeFamily.DATETIME),
                SqlFunctionCategory.TIMEDATE));
        // PostgreSQL's to_char(timestamp | date, template) and to_char(number, template): see DateTimeFormat and
        // NumberFormat.
        all.add(SqlBasicFunction.create("TO_CHAR", ReturnTypes.explicit(SqlTypeName.VARCHAR)
                        .andThen(SqlTypeTransforms.TO_NULLABLE),
                OperandTypes.family(SqlTypeFamily.DATETIME, SqlTypeFamily.STRING).or(
                        OperandTypes.family(SqlTypeFamily.NUMERIC, SqlTypeFamily.STRING)), SqlFunctionCategory.STRING));
        all.addAll(textOperators());
        // value AT TIME ZONE zone (see AtTimeZone): a TIMESTAMP read in the zone is an instant, an instant shown in
        // the zone is a TIMESTAMP.
        all.add(SqlBasicFunction.create(AtTimeZone.FUNCTION, binding -> {
            RelDataType value = binding.getOperandType(0);
            // Text is read as an instant, PostgreSQL's preferred reading of an untyped literal here.
            boolean instant = value.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                    || value.getSqlTypeName().getFamily() == SqlTypeFamily.CHARACTER;
            RelDataType type = binding.getTypeFactory().createSqlType(instant ? SqlTypeName.TIMESTAMP
                    : SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 6);
            return binding.getTypeFactory().createTypeWithNullability(type, true);
        }, OperandTypes.family(SqlTypeFamily.DATETIME, SqlTypeFamily.STRING).or(
                OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.STRING)), SqlFunctionCategory.TIMEDATE));
        // PostgreSQL's to_timestamp(seconds since the epoch): an instant.
        all.add(SqlBasicFunction.create("TO_TIMESTAMP", ReturnTypes.explicit(types -> types.createSqlType(
                        SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 6)).andThen(SqlTypeTransforms.TO_NULLABLE),
                OperandTypes.NUMERIC, SqlFunctionCategory.TIMEDATE));
        // PostgreSQL's now() and its synonyms: the statement's time (see ParameterBinder), a TIMESTAMP(6) in UTC.
        for (String name : List.of("NOW", "TRANSACTION_TIMESTAMP", "STATEMENT_TIMESTAMP")) {
            all.add(SqlBasicFunction.create(name, ReturnTypes.explicit(
                            types -> types.createSqlType(SqlTypeName.TIMESTAMP, 6)), OperandTypes.NILADIC,
                    SqlFunctionCategory.TIMEDATE).withDynamic(true));
        }
        return all;
    }

    /**
     * PostgreSQL's string, number and date functions beyond the standard's (see {@code TextFunctions}):
     * {@code left}, {@code right}, {@code lpad}, {@code rpad}, {@code ltrim}, {@code rtrim}, {@code btrim},
     * {@code reverse}, {@code md5}, {@code chr}, {@code strpos}, {@code concat}, {@code concat_ws}, {@code translate},
     * {@code ends_with}, {@code to_hex}, {@code trunc}, {@code make_date} and {@code date_part}.
     */
    private static List<SqlOperator> textOperators() {
        List<SqlOperator> all = new ArrayList<>();
        SqlReturnTypeInference text = ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(SqlTypeTransforms.TO_NULLABLE);
        for (String name : List.of("LEFT", "RIGHT")) {
            all.add(stringFunction(name, text, OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.INTEGER)));
        }
        for (String name : List.of("LPAD", "RPAD")) {
            all.add(stringFunction(name, text, OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.INTEGER)
                    .or(OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.INTEGER, SqlTypeFamily.STRING))));
        }
        for (String name : List.of("LTRIM", "RTRIM", "BTRIM")) {
            all.add(stringFunction(name, text, OperandTypes.STRING.or(OperandTypes.STRING_STRING)));
        }
        for (String name : List.of("REVERSE", "MD5")) {
            all.add(stringFunction(name, text, OperandTypes.STRING));
        }
        all.add(stringFunction("CHR", text, OperandTypes.family(SqlTypeFamily.INTEGER)));
        all.add(stringFunction("TO_HEX", text, OperandTypes.family(SqlTypeFamily.INTEGER)));
        all.add(stringFunction("STRPOS", ReturnTypes.explicit(SqlTypeName.INTEGER)
                .andThen(SqlTypeTransforms.TO_NULLABLE), OperandTypes.STRING_STRING));
        all.add(stringFunction("ENDS_WITH", ReturnTypes.explicit(SqlTypeName.BOOLEAN)
                .andThen(SqlTypeTransforms.TO_NULLABLE), OperandTypes.STRING_STRING));
        // NULL arguments are skipped: the result is NULL only for a NULL separator, but TO_NULLABLE is never wrong.
        all.add(stringFunction("CONCAT_WS", text, OperandTypes.ONE_OR_MORE));
        // concat(...) skips NULL arguments as PostgreSQL's and DuckDB's do, so it is never NULL itself.
        all.add(stringFunction("CONCAT", ReturnTypes.explicit(SqlTypeName.VARCHAR), OperandTypes.ONE_OR_MORE));
        // The parser reads translate(s, from, to) as this one.
        all.add(SqlLibraryOperators.TRANSLATE3);
        // Typed as ROUND is: trunc(2805.28, 0) is 2805, not 2805.00.
        all.add(((SqlBasicFunction) ROUND).withName("TRUNC"));
        all.add(SqlBasicFunction.create("MAKE_DATE", ReturnTypes.explicit(SqlTypeName.DATE)
                        .andThen(SqlTypeTransforms.TO_NULLABLE),
                OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER),
                SqlFunctionCategory.TIMEDATE));
        all.add(stringFunction("REPEAT", text, OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.INTEGER)));
        all.add(stringFunction("QUOTE_LITERAL", text, OperandTypes.STRING));
        all.add(stringFunction("BIT_LENGTH", ReturnTypes.explicit(SqlTypeName.INTEGER)
                .andThen(SqlTypeTransforms.TO_NULLABLE), OperandTypes.STRING));
        all.add(stringFunction("REGEXP_LIKE", ReturnTypes.explicit(SqlTypeName.BOOLEAN)
                .andThen(SqlTypeTransforms.TO_NULLABLE), OperandTypes.STRING_STRING.or(
                OperandTypes.STRING_STRING_STRING)));
        SqlReturnTypeInference number = ReturnTypes.explicit(SqlTypeName.DOUBLE).andThen(SqlTypeTransforms.TO_NULLABLE);
        SqlReturnTypeInference integer = ReturnTypes.explicit(SqlTypeName.BIGINT)
                .andThen(SqlTypeTransforms.TO_NULLABLE);
        // log(x) is the base-10 logarithm, log(b, x) the base-b one, as in PostgreSQL.
        all.add(SqlBasicFunction.create("LOG", number, OperandTypes.NUMERIC.or(OperandTypes.NUMERIC_NUMERIC),
                SqlFunctionCategory.NUMERIC));
        for (String name : List.of("GCD", "LCM")) {
            all.add(SqlBasicFunction.create(name, integer, OperandTypes.family(SqlTypeFamily.INTEGER,
                    SqlTypeFamily.INTEGER), SqlFunctionCategory.NUMERIC));
        }
        all.add(SqlBasicFunction.create("FACTORIAL", integer, OperandTypes.family(SqlTypeFamily.INTEGER),
                SqlFunctionCategory.NUMERIC));
        all.add(SqlBasicFunction.create("WIDTH_BUCKET", ReturnTypes.explicit(SqlTypeName.INTEGER)
                .andThen(SqlTypeTransforms.TO_NULLABLE), OperandTypes.family(SqlTypeFamily.NUMERIC,
                SqlTypeFamily.NUMERIC, SqlTypeFamily.NUMERIC, SqlTypeFamily.INTEGER), SqlFunctionCategory.NUMERIC));
        // A new value for every row: never folded into a constant.
        all.add(SqlBasicFunction.create("RANDOM", ReturnTypes.DOUBLE, OperandTypes.NILADIC,
                SqlFunctionCategory.NUMERIC).withDeterministic(false));
        all.add(stringFunction("TO_DATE", ReturnTypes.explicit(SqlTypeName.DATE).andThen(SqlTypeTransforms.TO_NULLABLE),
                OperandTypes.STRING_STRING));
        // EXTRACT with the field as text; a BIGINT, as EXTRACT is here (PostgreSQL's is a double).
        all.add(SqlBasicFunction.create("DATE_PART", ReturnTypes.explicit(SqlTypeName.BIGINT)
                        .andThen(SqlTypeTransforms.TO_NULLABLE),
                OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.DATETIME), SqlFunctionCategory.TIMEDATE));
        return all;
    }

    private static SqlOperator stringFunction(String name, SqlReturnTypeInference returns,
                                              SqlOperandTypeChecker operands) {
        return SqlBasicFunction.create(name, returns, operands, SqlFunctionCategory.STRING)
                .withOperandTypeInference(InferTypes.VARCHAR_1024);
    }

    /**
     * PostgreSQL's array functions (see {@code ArrayCalls}): {@code string_to_array}, {@code array_to_string},
     * {@code array_length}, {@code array_lower}, {@code array_upper}. The array argument is any type: the catalogs
     * keep PostgreSQL's array columns as their text.
     */
    private static List<SqlOperator> arrayOperators() {
        List<SqlOperator> all = new ArrayList<>();
        all.add(SqlBasicFunction.create("STRING_TO_ARRAY", LocusOperators::textArray,
                OperandTypes.STRING_STRING.or(OperandTypes.STRING_STRING_STRING), SqlFunctionCategory.STRING)
                .withOperandTypeInference(InferTypes.VARCHAR_1024));
        all.add(SqlBasicFunction.create("ARRAY_TO_STRING", ReturnTypes.explicit(SqlTypeName.VARCHAR)
                .andThen(SqlTypeTransforms.FORCE_NULLABLE), OperandTypes.VARIADIC, SqlFunctionCategory.STRING));
        for (String name : List.of("ARRAY_LENGTH", "ARRAY_LOWER", "ARRAY_UPPER")) {
            all.add(SqlBasicFunction.create(name, ReturnTypes.explicit(SqlTypeName.INTEGER)
                    .andThen(SqlTypeTransforms.FORCE_NULLABLE), OperandTypes.ANY_NUMERIC, SqlFunctionCategory.SYSTEM));
        }
        return all;
    }

    /**
     * {@code information_schema._pg_expandarray(a)}: PostgreSQL's set of {@code (x, n)} rows, one per element. Typed
     * here so that tools' catalog queries over LocusDB's always-empty index catalogs plan (and answer no rows); the
     * engine refuses to run it, as it runs no set-returning function in a select list.
     */
    private static RelDataType expandedArrayRow(SqlOperatorBinding binding) {
        RelDataTypeFactory factory = binding.getTypeFactory();
        RelDataType argument = binding.getOperandType(0);
        RelDataType element = argument.getComponentType() != null ? argument.getComponentType()
                : factory.createSqlType(SqlTypeName.VARCHAR);
        return factory.builder().add("x", factory.createTypeWithNullability(element, true))
                .add("n", factory.createSqlType(SqlTypeName.INTEGER)).build();
    }

    private static RelDataType textArray(SqlOperatorBinding binding) {
        RelDataTypeFactory factory = binding.getTypeFactory();
        RelDataType text = factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.VARCHAR), true);
        return factory.createTypeWithNullability(factory.createArrayType(text, -1), true);
    }

    /**
     * {@code pg_catalog.f} (and {@code information_schema.f}) is {@code f}: PostgreSQL's functions live there, and
     * tools qualify them.
     */
    private static String functionName(SqlIdentifier name) {
        if (name.isSimple()) {
            return name.getSimple();
        }
        if (name.names.size() == 2 && (name.names.get(0).equalsIgnoreCase("pg_catalog")
                || name.names.get(0).equalsIgnoreCase("information_schema"))) {
            return name.names.get(1);
        }
        return null;
    }

    /** The standard table, with LocusDB's operators in place of the standard ones of the same name. */
    static final SqlOperatorTable TABLE = new SqlOperatorTable() {
        @Override
        public void lookupOperatorOverloads(SqlIdentifier name, @Nullable SqlFunctionCategory category,
                                            SqlSyntax syntax, List<SqlOperator> operators, SqlNameMatcher matcher) {
            int from = operators.size();
            SqlStdOperatorTable.instance().lookupOperatorOverloads(name, category, syntax, operators, matcher);
            for (int i = from; i < operators.size(); i++) {
                operators.set(i, replaced(operators.get(i)));
            }
            String simple = functionName(name);
            if (operators.size() == from && simple != null) {
                for (SqlOperator library : LIBRARY) {
                    if (matcher.matches(library.getName(), simple)) {
                        operators.add(library);
                    }
                }
            }
        }

        @Override
        public List<SqlOperator> getOperatorList() {
            List<SqlOperator> all = new ArrayList<>(SqlStdOperatorTable.instance().getOperatorList().stream()
                    .map(LocusOperators::replaced).toList());
            all.addAll(LIBRARY);
            return all;
        }
    };

    private LocusOperators() {
    }

    private static SqlOperator replaced(SqlOperator standard) {
        if (standard == SqlStdOperatorTable.PERCENTILE_CONT) {
            return PERCENTILE_CONT;
        }
        if (standard == SqlStdOperatorTable.OCTET_LENGTH) {
            return OCTET_LENGTH;
        }
        return standard == SqlStdOperatorTable.ROUND ? ROUND : standard;
    }

    /** {@code ROUND(x, ?)}: the digits are an INTEGER; a value that is a {@code ?} itself is a DOUBLE. */
    private static void roundOperandTypes(SqlCallBinding binding, RelDataType returnType, RelDataType[] types) {
        RelDataTypeFactory factory = binding.getTypeFactory();
        RelDataType known = binding.getOperandType(0);
        types[0] = known.getSqlTypeName() == SqlTypeName.UNKNOWN ? factory.createSqlType(SqlTypeName.DOUBLE) : known;
        if (types.length > 1) {
            types[1] = factory.createSqlType(SqlTypeName.INTEGER);
        }
    }

    private static RelDataType roundType(SqlOperatorBinding binding) {
        RelDataType argument = binding.getOperandType(0);
        if (argument.getSqlTypeName() != SqlTypeName.DECIMAL || binding.getOperandCount() < 2
                || !binding.isOperandLiteral(1, false)) {
            return argument;
        }
        Integer digits = binding.getOperandLiteralValue(1, Integer.class);
        if (digits == null || digits >= argument.getScale()) {
            return argument;
        }
        int scale = Math.max(0, digits);
        return binding.getTypeFactory().createSqlType(SqlTypeName.DECIMAL, argument.getPrecision(), scale);
    }
}
