package io.locusdb.jdbc;

import io.locusdb.protocol.ColumnDescription;
import io.locusdb.protocol.Message;
import io.locusdb.protocol.ProtocolException;
import io.locusdb.protocol.WireType;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * What generic tools need to browse LocusDB: tables and columns come from the server's METADATA message and are
 * reshaped here into JDBC's standard result sets; the rest (no schemas, catalogs, keys, indexes, procedures)
 * answers with empty result sets of the standard shape. The supports* answers describe what LocusDB runs:
 * single-table SELECT (filters, expressions, GROUP BY, HAVING, ORDER BY, LIMIT), DDL, INSERT, no joins,
 * subqueries, set operations or transactions.
 */
final class LocusDatabaseMetaData implements DatabaseMetaData {
    private final LocusConnection connection;

    LocusDatabaseMetaData(LocusConnection connection) {
        this.connection = connection;
    }

    // ---- client-side result sets

    /** Columns from "NAME:kind" specs: s = VARCHAR, i = INTEGER (also JDBC's SMALLINT columns), b = BOOLEAN. */
    private static List<ColumnDescription> columns(String... specs) {
        List<ColumnDescription> out = new ArrayList<>();
        for (String spec : specs) {
            int colon = spec.indexOf(':');
            WireType type = switch (spec.charAt(colon + 1)) {
                case 'i' -> WireType.of(WireType.INTEGER);
                case 'b' -> WireType.of(WireType.BOOLEAN);
                default -> WireType.varchar(0);
            };
            out.add(new ColumnDescription(spec.substring(0, colon), type, true));
        }
        return out;
    }

    private ResultSet result(List<ColumnDescription> columns, List<Object[]> rows) throws SQLException {
        connection.checkOpen();
        return LocusResultSet.clientSide(columns, rows);
    }

    private ResultSet empty(String... specs) throws SQLException {
        return result(columns(specs), List.of());
    }

    /** Runs METADATA and reads its (small) result completely. */
    private List<Object[]> serverRows(int what, String tablePattern, String columnPattern) throws SQLException {
        LocusConnection.Outcome o = connection.run(null, new Message.Metadata(what,
                tablePattern == null ? "" : tablePattern, columnPattern == null ? "" : columnPattern),
                LocusConnection.DEFAULT_FETCH_BATCHES);
        List<Object[]> rows = new ArrayList<>();
        if (o.resultSet() == null) {
            throw new SQLException("METADATA answered an update count instead of rows", Errors.GENERAL);
        }
        try (ResultSet rs = o.resultSet()) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                Object[] row = new Object[n];
                for (int i = 0; i < n; i++) {
                    row[i] = rs.getObject(i + 1);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static final String[] TABLE_COLUMNS = {"TABLE_CAT:s", "TABLE_SCHEM:s", "TABLE_NAME:s", "TABLE_TYPE:s",
        "REMARKS:s", "TYPE_CAT:s", "TYPE_SCHEM:s", "TYPE_NAME:s", "SELF_REFERENCING_COL_NAME:s",
        "REF_GENERATION:s"};

    /**
     * Tables and views (types TABLE and VIEW); LocusDB has no catalogs or schemas, so those columns are NULL and their
     * patterns are not used.
     */
    @Override
    public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern, String[] types)
            throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        for (Object[] t : serverRows(Message.Metadata.TABLES, tableNamePattern, "")) {
            if (types == null || Arrays.stream(types).anyMatch(type -> ((String) t[1]).equalsIgnoreCase(type))) {
                rows.add(new Object[] {null, null, t[0], t[1], t[2], null, null, null, null, null});
            }
        }
        // The standard's order: by type, then by name.
        rows.sort(Comparator.comparing((Object[] r) -> (String) r[3]).thenComparing(r -> (String) r[2]));
        return result(columns(TABLE_COLUMNS), rows);
    }

    @Override
    public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern,
                                String columnNamePattern) throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        for (Object[] c : serverRows(Message.Metadata.COLUMNS, tableNamePattern, columnNamePattern)) {
            // table_name, column_name, ordinal, type_name, type_tag, precision, scale, length, nullable
            int tag = ((Number) c[4]).intValue();
            WireType type = wireType(tag, intOr(c[5]), intOr(c[6]), intOr(c[7]));
            boolean nullable = c[8] == null || (Boolean) c[8];
            boolean numeric = JdbcTypes.signed(type);
            Integer digits = type.tag() == WireType.DECIMAL ? Integer.valueOf(type.scale())
                    : type.tag() == WireType.INTEGER || type.tag() == WireType.BIGINT ? Integer.valueOf(0) : null;
            Integer octets = type.isString() && type.length() > 0 ? type.length() * 4 : null;
            rows.add(new Object[] {null, null, c[0], c[1], JdbcTypes.sqlType(type), type.name(),
                JdbcTypes.precision(type), null, digits, numeric ? 10 : null,
                nullable ? columnNullable : columnNoNulls, null, null, null, null, octets, c[2],
                nullable ? "YES" : "NO", null, null, null, null, "NO", "NO"});
        }
        return result(columns("TABLE_CAT:s", "TABLE_SCHEM:s", "TABLE_NAME:s", "COLUMN_NAME:s", "DATA_TYPE:i",
                "TYPE_NAME:s", "COLUMN_SIZE:i", "BUFFER_LENGTH:i", "DECIMAL_DIGITS:i", "NUM_PREC_RADIX:i",
                "NULLABLE:i", "REMARKS:s", "COLUMN_DEF:s", "SQL_DATA_TYPE:i", "SQL_DATETIME_SUB:i",
                "CHAR_OCTET_LENGTH:i", "ORDINAL_POSITION:i", "IS_NULLABLE:s", "SCOPE_CATALOG:s", "SCOPE_SCHEMA:s",
                "SCOPE_TABLE:s", "SOURCE_DATA_TYPE:i", "IS_AUTOINCREMENT:s", "IS_GENERATEDCOLUMN:s"), rows);
    }

    private static int intOr(Object v) {
        return v == null ? 0 : ((Number) v).intValue();
    }

    private static WireType wireType(int tag, int precision, int scale, int length) throws SQLException {
        try {
            return switch (tag) {
                case WireType.DECIMAL -> WireType.decimal(precision, scale);
                case WireType.VARCHAR -> WireType.varchar(length);
                case WireType.CHAR -> WireType.character(length);
                default -> WireType.of(tag);
            };
        } catch (ProtocolException e) {
            throw new SQLException("the server described a column with an invalid type: " + e.getMessage(),
                    Errors.PROTOCOL_VIOLATION);
        }
    }

    @Override
    public ResultSet getTableTypes() throws SQLException {
        return result(columns("TABLE_TYPE:s"), List.of(new Object[] {"TABLE"}, new Object[] {"VIEW"}));
    }

    @Override
    public ResultSet getSchemas() throws SQLException {
        return empty("TABLE_SCHEM:s", "TABLE_CATALOG:s");
    }

    @Override
    public ResultSet getSchemas(String catalog, String schemaPattern) throws SQLException {
        return getSchemas();
    }

    @Override
    public ResultSet getCatalogs() throws SQLException {
        return empty("TABLE_CAT:s");
    }

    @Override
    public ResultSet getTypeInfo() throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        // TYPE_NAME, DATA_TYPE, PRECISION, LITERAL_PREFIX, LITERAL_SUFFIX, CREATE_PARAMS, NULLABLE, CASE_SENSITIVE,
        // SEARCHABLE, UNSIGNED_ATTRIBUTE, FIXED_PREC_SCALE, AUTO_INCREMENT, LOCAL_TYPE_NAME, MINIMUM_SCALE,
        // MAXIMUM_SCALE, SQL_DATA_TYPE, SQL_DATETIME_SUB, NUM_PREC_RADIX
        rows.add(typeRow("BIGINT", Types.BIGINT, 19, null, null, null, false, 10));
        rows.add(typeRow("CHAR", Types.CHAR, Integer.MAX_VALUE, "'", "'", "length", true, null));
        rows.add(typeRow("DECIMAL", Types.DECIMAL, WireType.MAX_DECIMAL_PRECISION, null, null, "precision,scale",
                false, 10));
        rows.add(typeRow("INTEGER", Types.INTEGER, 10, null, null, null, false, 10));
        rows.add(typeRow("DOUBLE", Types.DOUBLE, 17, null, null, null, false, 2));
        rows.add(typeRow("VARCHAR", Types.VARCHAR, Integer.MAX_VALUE, "'", "'", "max length", true, null));
        rows.add(typeRow("BOOLEAN", Types.BOOLEAN, 1, null, null, null, false, null));
        rows.add(typeRow("DATE", Types.DATE, 10, "DATE '", "'", null, false, null));
        rows.add(typeRow("TIMESTAMP", Types.TIMESTAMP, 26, "TIMESTAMP '", "'", null, false, null));
        rows.add(typeRow("TIMESTAMP WITH TIME ZONE", Types.TIMESTAMP_WITH_TIMEZONE, 35, "TIMESTAMPTZ '", "'", null,
                false, null));
        return result(columns("TYPE_NAME:s", "DATA_TYPE:i", "PRECISION:i", "LITERAL_PREFIX:s", "LITERAL_SUFFIX:s",
                "CREATE_PARAMS:s", "NULLABLE:i", "CASE_SENSITIVE:b", "SEARCHABLE:i", "UNSIGNED_ATTRIBUTE:b",
                "FIXED_PREC_SCALE:b", "AUTO_INCREMENT:b", "LOCAL_TYPE_NAME:s", "MINIMUM_SCALE:i", "MAXIMUM_SCALE:i",
                "SQL_DATA_TYPE:i", "SQL_DATETIME_SUB:i", "NUM_PREC_RADIX:i"), rows);
    }

    private static Object[] typeRow(String name, int type, int precision, String prefix, String suffix,
                                    String params, boolean caseSensitive, Integer radix) {
        boolean decimal = type == Types.DECIMAL;
        return new Object[] {name, type, precision, prefix, suffix, params, typeNullable, caseSensitive,
            typeSearchable, radix == null, false, false, name, 0, decimal ? WireType.MAX_DECIMAL_PRECISION : 0,
            null, null, radix};
    }

    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
        return empty("TABLE_CAT:s", "TABLE_SCHEM:s", "TABLE_NAME:s", "COLUMN_NAME:s", "KEY_SEQ:i", "PK_NAME:s");
    }

    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate)
            throws SQLException {
        return empty("TABLE_CAT:s", "TABLE_SCHEM:s", "TABLE_NAME:s", "NON_UNIQUE:b", "INDEX_QUALIFIER:s",
                "INDEX_NAME:s", "TYPE:i", "ORDINAL_POSITION:i", "COLUMN_NAME:s", "ASC_OR_DESC:s", "CARDINALITY:i",
                "PAGES:i", "FILTER_CONDITION:s");
    }

    private static final String[] KEY_COLUMNS = {"PKTABLE_CAT:s", "PKTABLE_SCHEM:s", "PKTABLE_NAME:s",
        "PKCOLUMN_NAME:s", "FKTABLE_CAT:s", "FKTABLE_SCHEM:s", "FKTABLE_NAME:s", "FKCOLUMN_NAME:s", "KEY_SEQ:i",
        "UPDATE_RULE:i", "DELETE_RULE:i", "FK_NAME:s", "PK_NAME:s", "DEFERRABILITY:i"};

    @Override
    public ResultSet getImportedKeys(String catalog, String schema, String table) throws SQLException {
        return empty(KEY_COLUMNS);
    }

    @Override
    public ResultSet getExportedKeys(String catalog, String schema, String table) throws SQLException {
        return empty(KEY_COLUMNS);
    }

    @Override
    public ResultSet getCrossReference(String parentCatalog, String parentSchema, String parentTable,
                                       String foreignCatalog, String foreignSchema, String foreignTable)
            throws SQLException {
        return empty(KEY_COLUMNS);
    }

    @Override
    public ResultSet getProcedures(String catalog, String schemaPattern, String procedureNamePattern)
            throws SQLException {
        return empty("PROCEDURE_CAT:s", "PROCEDURE_SCHEM:s", "PROCEDURE_NAME:s", "RESERVED1:s", "RESERVED2:s",
                "RESERVED3:s", "REMARKS:s", "PROCEDURE_TYPE:i", "SPECIFIC_NAME:s");
    }

    @Override
    public ResultSet getProcedureColumns(String catalog, String schemaPattern, String procedureNamePattern,
                                         String columnNamePattern) throws SQLException {
        return empty("PROCEDURE_CAT:s", "PROCEDURE_SCHEM:s", "PROCEDURE_NAME:s", "COLUMN_NAME:s", "COLUMN_TYPE:i",
                "DATA_TYPE:i", "TYPE_NAME:s", "PRECISION:i", "LENGTH:i", "SCALE:i", "RADIX:i", "NULLABLE:i",
                "REMARKS:s", "COLUMN_DEF:s", "SQL_DATA_TYPE:i", "SQL_DATETIME_SUB:i", "CHAR_OCTET_LENGTH:i",
                "ORDINAL_POSITION:i", "IS_NULLABLE:s", "SPECIFIC_NAME:s");
    }

    @Override
    public ResultSet getFunctions(String catalog, String schemaPattern, String functionNamePattern)
            throws SQLException {
        return empty("FUNCTION_CAT:s", "FUNCTION_SCHEM:s", "FUNCTION_NAME:s", "REMARKS:s", "FUNCTION_TYPE:i",
                "SPECIFIC_NAME:s");
    }

    @Override
    public ResultSet getFunctionColumns(String catalog, String schemaPattern, String functionNamePattern,
                                        String columnNamePattern) throws SQLException {
        return empty("FUNCTION_CAT:s", "FUNCTION_SCHEM:s", "FUNCTION_NAME:s", "COLUMN_NAME:s", "COLUMN_TYPE:i",
                "DATA_TYPE:i", "TYPE_NAME:s", "PRECISION:i", "LENGTH:i", "SCALE:i", "RADIX:i", "NULLABLE:i",
                "REMARKS:s", "CHAR_OCTET_LENGTH:i", "ORDINAL_POSITION:i", "IS_NULLABLE:s", "SPECIFIC_NAME:s");
    }

    @Override
    public ResultSet getColumnPrivileges(String catalog, String schema, String table, String columnNamePattern)
            throws SQLException {
        return empty("TABLE_CAT:s", "TABLE_SCHEM:s", "TABLE_NAME:s", "COLUMN_NAME:s", "GRANTOR:s", "GRANTEE:s",
                "PRIVILEGE:s", "IS_GRANTABLE:s");
    }

    @Override
    public ResultSet getTablePrivileges(String catalog, String schemaPattern, String tableNamePattern)
            throws SQLException {
        return empty("TABLE_CAT:s", "TABLE_SCHEM:s", "TABLE_NAME:s", "GRANTOR:s", "GRANTEE:s", "PRIVILEGE:s",
                "IS_GRANTABLE:s");
    }

    @Override
    public ResultSet getBestRowIdentifier(String catalog, String schema, String table, int scope, boolean nullable)
            throws SQLException {
        return empty("SCOPE:i", "COLUMN_NAME:s", "DATA_TYPE:i", "TYPE_NAME:s", "COLUMN_SIZE:i", "BUFFER_LENGTH:i",
                "DECIMAL_DIGITS:i", "PSEUDO_COLUMN:i");
    }

    @Override
    public ResultSet getVersionColumns(String catalog, String schema, String table) throws SQLException {
        return empty("SCOPE:i", "COLUMN_NAME:s", "DATA_TYPE:i", "TYPE_NAME:s", "COLUMN_SIZE:i", "BUFFER_LENGTH:i",
                "DECIMAL_DIGITS:i", "PSEUDO_COLUMN:i");
    }

    @Override
    public ResultSet getUDTs(String catalog, String schemaPattern, String typeNamePattern, int[] types)
            throws SQLException {
        return empty("TYPE_CAT:s", "TYPE_SCHEM:s", "TYPE_NAME:s", "CLASS_NAME:s", "DATA_TYPE:i", "REMARKS:s",
                "BASE_TYPE:i");
    }

    @Override
    public ResultSet getSuperTypes(String catalog, String schemaPattern, String typeNamePattern)
            throws SQLException {
        return empty("TYPE_CAT:s", "TYPE_SCHEM:s", "TYPE_NAME:s", "SUPERTYPE_CAT:s", "SUPERTYPE_SCHEM:s",
                "SUPERTYPE_NAME:s");
    }

    @Override
    public ResultSet getSuperTables(String catalog, String schemaPattern, String tableNamePattern)
            throws SQLException {
        return empty("TABLE_CAT:s", "TABLE_SCHEM:s", "TABLE_NAME:s", "SUPERTABLE_NAME:s");
    }

    @Override
    public ResultSet getAttributes(String catalog, String schemaPattern, String typeNamePattern,
                                   String attributeNamePattern) throws SQLException {
        return empty("TYPE_CAT:s", "TYPE_SCHEM:s", "TYPE_NAME:s", "ATTR_NAME:s", "DATA_TYPE:i", "ATTR_TYPE_NAME:s",
                "ATTR_SIZE:i", "DECIMAL_DIGITS:i", "NUM_PREC_RADIX:i", "NULLABLE:i", "REMARKS:s", "ATTR_DEF:s",
                "SQL_DATA_TYPE:i", "SQL_DATETIME_SUB:i", "CHAR_OCTET_LENGTH:i", "ORDINAL_POSITION:i",
                "IS_NULLABLE:s", "SCOPE_CATALOG:s", "SCOPE_SCHEMA:s", "SCOPE_TABLE:s", "SOURCE_DATA_TYPE:i");
    }

    @Override
    public ResultSet getClientInfoProperties() throws SQLException {
        return empty("NAME:s", "MAX_LEN:i", "DEFAULT_VALUE:s", "DESCRIPTION:s");
    }

    @Override
    public ResultSet getPseudoColumns(String catalog, String schemaPattern, String tableNamePattern,
                                      String columnNamePattern) throws SQLException {
        return empty("TABLE_CAT:s", "TABLE_SCHEM:s", "TABLE_NAME:s", "COLUMN_NAME:s", "DATA_TYPE:i",
                "COLUMN_SIZE:i", "DECIMAL_DIGITS:i", "NUM_PREC_RADIX:i", "COLUMN_USAGE:s", "REMARKS:s",
                "CHAR_OCTET_LENGTH:i", "IS_NULLABLE:s");
    }

    // ---- product and driver

    @Override
    public String getURL() {
        return ConnectionConfig.redact(connection.config().url());
    }

    @Override
    public String getUserName() {
        return connection.config().user();
    }

    @Override
    public String getDatabaseProductName() {
        return "LocusDB";
    }

    @Override
    public String getDatabaseProductVersion() {
        String v = connection.serverVersion();
        return v == null ? "" : v;
    }

    private int versionPart(int part) {
        String[] parts = getDatabaseProductVersion().split("[^0-9]+");
        int found = 0;
        for (String p : parts) {
            if (!p.isEmpty()) {
                if (found == part) {
                    try {
                        return Integer.parseInt(p);
                    } catch (NumberFormatException e) {
                        return 0;
                    }
                }
                found++;
            }
        }
        return 0;
    }

    @Override
    public int getDatabaseMajorVersion() {
        return versionPart(0);
    }

    @Override
    public int getDatabaseMinorVersion() {
        return versionPart(1);
    }

    @Override
    public String getDriverName() {
        return LocusDriver.NAME;
    }

    @Override
    public String getDriverVersion() {
        return LocusDriver.VERSION;
    }

    @Override
    public int getDriverMajorVersion() {
        return LocusDriver.MAJOR_VERSION;
    }

    @Override
    public int getDriverMinorVersion() {
        return LocusDriver.MINOR_VERSION;
    }

    @Override
    public int getJDBCMajorVersion() {
        return 4;
    }

    @Override
    public int getJDBCMinorVersion() {
        return 3;
    }

    @Override
    public Connection getConnection() {
        return connection;
    }

    // ---- SQL dialect

    @Override
    public String getIdentifierQuoteString() {
        return "\"";
    }

    @Override
    public String getSQLKeywords() {
        return "EXPLAIN,LOAD,TPCH,SCALE,PARTS,COPY,FORMAT,HEADER,PARTITION,PARTITIONS,GROUP,HASH,RANGE";
    }

    @Override
    public String getNumericFunctions() {
        return "ABS,CEIL,CEILING,FLOOR,MOD,POWER,ROUND,SQRT";
    }

    @Override
    public String getStringFunctions() {
        return "CHAR_LENGTH,CHARACTER_LENGTH,CONCAT,LENGTH,LOWER,SUBSTRING,TRIM,UPPER";
    }

    @Override
    public String getSystemFunctions() {
        return "COALESCE";
    }

    @Override
    public String getTimeDateFunctions() {
        return "EXTRACT";
    }

    @Override
    public String getSearchStringEscape() {
        return "\\";
    }

    @Override
    public String getExtraNameCharacters() {
        return "";
    }

    @Override
    public String getSchemaTerm() {
        return "schema";
    }

    @Override
    public String getProcedureTerm() {
        return "procedure";
    }

    @Override
    public String getCatalogTerm() {
        return "catalog";
    }

    @Override
    public boolean isCatalogAtStart() {
        return true;
    }

    @Override
    public String getCatalogSeparator() {
        return ".";
    }

    // Identifiers are matched case-insensitively and stored as written (Calcite: unquoted casing unchanged).
    @Override
    public boolean supportsMixedCaseIdentifiers() {
        return false;
    }

    @Override
    public boolean storesUpperCaseIdentifiers() {
        return false;
    }

    @Override
    public boolean storesLowerCaseIdentifiers() {
        return false;
    }

    @Override
    public boolean storesMixedCaseIdentifiers() {
        return true;
    }

    @Override
    public boolean supportsMixedCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean storesUpperCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean storesLowerCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean storesMixedCaseQuotedIdentifiers() {
        return true;
    }

    @Override
    public boolean allProceduresAreCallable() {
        return false;
    }

    @Override
    public boolean allTablesAreSelectable() {
        return true;
    }

    @Override
    public boolean isReadOnly() {
        return false;
    }

    @Override
    public boolean nullsAreSortedHigh() {
        return false;
    }

    @Override
    public boolean nullsAreSortedLow() {
        return false;
    }

    @Override
    public boolean nullsAreSortedAtStart() {
        return false;
    }

    @Override
    public boolean nullsAreSortedAtEnd() {
        return true;
    }

    @Override
    public boolean usesLocalFiles() {
        return false;
    }

    @Override
    public boolean usesLocalFilePerTable() {
        return false;
    }

    @Override
    public boolean supportsAlterTableWithAddColumn() {
        return false;
    }

    @Override
    public boolean supportsAlterTableWithDropColumn() {
        return false;
    }

    @Override
    public boolean supportsColumnAliasing() {
        return true;
    }

    @Override
    public boolean nullPlusNonNullIsNull() {
        return true;
    }

    @Override
    public boolean supportsConvert() {
        return false;
    }

    @Override
    public boolean supportsConvert(int fromType, int toType) {
        return false;
    }

    @Override
    public boolean supportsTableCorrelationNames() {
        return true;
    }

    @Override
    public boolean supportsDifferentTableCorrelationNames() {
        return true;
    }

    @Override
    public boolean supportsExpressionsInOrderBy() {
        return true;
    }

    @Override
    public boolean supportsOrderByUnrelated() {
        return true;
    }

    @Override
    public boolean supportsGroupBy() {
        return true;
    }

    @Override
    public boolean supportsGroupByUnrelated() {
        return true;
    }

    @Override
    public boolean supportsGroupByBeyondSelect() {
        return true;
    }

    @Override
    public boolean supportsLikeEscapeClause() {
        return true;
    }

    @Override
    public boolean supportsMultipleResultSets() {
        return false;
    }

    @Override
    public boolean supportsMultipleTransactions() {
        return false;
    }

    @Override
    public boolean supportsNonNullableColumns() {
        return true;
    }

    @Override
    public boolean supportsMinimumSQLGrammar() {
        return false;
    }

    @Override
    public boolean supportsCoreSQLGrammar() {
        return false;
    }

    @Override
    public boolean supportsExtendedSQLGrammar() {
        return false;
    }

    @Override
    public boolean supportsANSI92EntryLevelSQL() {
        return false;
    }

    @Override
    public boolean supportsANSI92IntermediateSQL() {
        return false;
    }

    @Override
    public boolean supportsANSI92FullSQL() {
        return false;
    }

    @Override
    public boolean supportsIntegrityEnhancementFacility() {
        return false;
    }

    @Override
    public boolean supportsOuterJoins() {
        return false;
    }

    @Override
    public boolean supportsFullOuterJoins() {
        return false;
    }

    @Override
    public boolean supportsLimitedOuterJoins() {
        return false;
    }

    @Override
    public boolean supportsSchemasInDataManipulation() {
        return false;
    }

    @Override
    public boolean supportsSchemasInProcedureCalls() {
        return false;
    }

    @Override
    public boolean supportsSchemasInTableDefinitions() {
        return false;
    }

    @Override
    public boolean supportsSchemasInIndexDefinitions() {
        return false;
    }

    @Override
    public boolean supportsSchemasInPrivilegeDefinitions() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInDataManipulation() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInProcedureCalls() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInTableDefinitions() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInIndexDefinitions() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInPrivilegeDefinitions() {
        return false;
    }

    @Override
    public boolean supportsPositionedDelete() {
        return false;
    }

    @Override
    public boolean supportsPositionedUpdate() {
        return false;
    }

    @Override
    public boolean supportsSelectForUpdate() {
        return false;
    }

    @Override
    public boolean supportsStoredProcedures() {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInComparisons() {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInExists() {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInIns() {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInQuantifieds() {
        return false;
    }

    @Override
    public boolean supportsCorrelatedSubqueries() {
        return false;
    }

    @Override
    public boolean supportsUnion() {
        return false;
    }

    @Override
    public boolean supportsUnionAll() {
        return false;
    }

    @Override
    public boolean supportsOpenCursorsAcrossCommit() {
        return false;
    }

    @Override
    public boolean supportsOpenCursorsAcrossRollback() {
        return false;
    }

    @Override
    public boolean supportsOpenStatementsAcrossCommit() {
        return true;
    }

    @Override
    public boolean supportsOpenStatementsAcrossRollback() {
        return true;
    }

    // ---- limits (0 = no limit or unknown)

    @Override
    public int getMaxBinaryLiteralLength() {
        return 0;
    }

    @Override
    public int getMaxCharLiteralLength() {
        return 0;
    }

    @Override
    public int getMaxColumnNameLength() {
        return 0;
    }

    @Override
    public int getMaxColumnsInGroupBy() {
        return 0;
    }

    @Override
    public int getMaxColumnsInIndex() {
        return 0;
    }

    @Override
    public int getMaxColumnsInOrderBy() {
        return 0;
    }

    @Override
    public int getMaxColumnsInSelect() {
        return 65535;
    }

    @Override
    public int getMaxColumnsInTable() {
        return 0;
    }

    @Override
    public int getMaxConnections() {
        return 0;
    }

    @Override
    public int getMaxCursorNameLength() {
        return 0;
    }

    @Override
    public int getMaxIndexLength() {
        return 0;
    }

    @Override
    public int getMaxSchemaNameLength() {
        return 0;
    }

    @Override
    public int getMaxProcedureNameLength() {
        return 0;
    }

    @Override
    public int getMaxCatalogNameLength() {
        return 0;
    }

    @Override
    public int getMaxRowSize() {
        return 0;
    }

    @Override
    public boolean doesMaxRowSizeIncludeBlobs() {
        return false;
    }

    @Override
    public int getMaxStatementLength() {
        Message.Ready r = connection.ready();
        return r == null ? 0 : Math.max(0, r.maxFrameBytes() - 64);
    }

    @Override
    public int getMaxStatements() {
        Message.Ready r = connection.ready();
        return r == null ? 0 : r.maxStatements();
    }

    @Override
    public int getMaxTableNameLength() {
        return 0;
    }

    @Override
    public int getMaxTablesInSelect() {
        return 1;
    }

    @Override
    public int getMaxUserNameLength() {
        return 0;
    }

    // ---- transactions: none

    @Override
    public int getDefaultTransactionIsolation() {
        return Connection.TRANSACTION_NONE;
    }

    @Override
    public boolean supportsTransactions() {
        return false;
    }

    @Override
    public boolean supportsTransactionIsolationLevel(int level) {
        return level == Connection.TRANSACTION_NONE;
    }

    @Override
    public boolean supportsDataDefinitionAndDataManipulationTransactions() {
        return false;
    }

    @Override
    public boolean supportsDataManipulationTransactionsOnly() {
        return false;
    }

    @Override
    public boolean dataDefinitionCausesTransactionCommit() {
        return false;
    }

    @Override
    public boolean dataDefinitionIgnoredInTransactions() {
        return false;
    }

    // ---- result sets and statements

    @Override
    public boolean supportsResultSetType(int type) {
        return type == ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public boolean supportsResultSetConcurrency(int type, int concurrency) {
        return type == ResultSet.TYPE_FORWARD_ONLY && concurrency == ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public boolean ownUpdatesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean ownDeletesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean ownInsertsAreVisible(int type) {
        return false;
    }

    @Override
    public boolean othersUpdatesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean othersDeletesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean othersInsertsAreVisible(int type) {
        return false;
    }

    @Override
    public boolean updatesAreDetected(int type) {
        return false;
    }

    @Override
    public boolean deletesAreDetected(int type) {
        return false;
    }

    @Override
    public boolean insertsAreDetected(int type) {
        return false;
    }

    @Override
    public boolean supportsBatchUpdates() {
        return true;
    }

    @Override
    public boolean supportsSavepoints() {
        return false;
    }

    @Override
    public boolean supportsNamedParameters() {
        return false;
    }

    @Override
    public boolean supportsMultipleOpenResults() {
        return false;
    }

    @Override
    public boolean supportsGetGeneratedKeys() {
        return false;
    }

    @Override
    public boolean supportsResultSetHoldability(int holdability) {
        return holdability == ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public int getResultSetHoldability() {
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public int getSQLStateType() {
        return sqlStateSQL;
    }

    @Override
    public boolean locatorsUpdateCopy() {
        return false;
    }

    @Override
    public boolean supportsStatementPooling() {
        return false;
    }

    @Override
    public RowIdLifetime getRowIdLifetime() {
        return RowIdLifetime.ROWID_UNSUPPORTED;
    }

    @Override
    public boolean supportsStoredFunctionsUsingCallSyntax() {
        return false;
    }

    @Override
    public boolean autoCommitFailureClosesAllResultSets() {
        return false;
    }

    @Override
    public boolean generatedKeyAlwaysReturned() {
        return false;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Errors.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    @Override
    public String toString() {
        return "LocusDatabaseMetaData[" + getURL() + "]";
    }
}
