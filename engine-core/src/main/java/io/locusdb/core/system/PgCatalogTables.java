package io.locusdb.core.system;

import io.locusdb.core.sql.SystemTable;
import io.locusdb.core.sql.pg.PgOids;
import io.locusdb.core.sql.pg.PgTypeInfo;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.ColumnDefault;
import io.locusdb.core.storage.table.IndexDefinition;
import io.locusdb.core.storage.table.KeyViolationException;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.storage.table.ViewDefinition;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.PhysicalText;
import io.locusdb.core.storage.type.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * PostgreSQL's catalogs, {@code pg_catalog} and {@code information_schema}, computed from LocusDB's catalog at each
 * execution, so that the queries tools send on connect (psql's {@code \dt}, pgjdbc's {@code DatabaseMetaData},
 * SQLAlchemy's inspector, BI tools) read the real tables, views and columns. Object identifiers are stable: fixed
 * ones for PostgreSQL's own objects, and for a table or view one derived from its schema and name
 * ({@link PgOids}). Indexes are listed in {@code pg_indexes} and primary keys as constraints;
 * LocusDB has no foreign keys, defaults, comments, owners or privileges, so those catalogs are empty and every object
 * belongs to the one role {@value PgOids#OWNER_NAME}.
 */
public final class PgCatalogTables {
    public static final String PG_CATALOG = "pg_catalog";
    public static final String INFORMATION_SCHEMA = "information_schema";
    /** The name the one database answers to in the catalogs. */
    public static final String DATABASE = "locus";

    private final Catalog catalog;
    private final List<SystemTable> ownSystemTables;

    /** @param ownSystemTables the {@code locus_*} tables, listed as views of the public schema */
    public PgCatalogTables(Catalog catalog, List<SystemTable> ownSystemTables) {
        this.catalog = catalog;
        this.ownSystemTables = List.copyOf(ownSystemTables);
    }

    /** A relation as the catalogs list it. */
    /** A relation as the catalog tables show it; {@code defaults} the columns' defaults as SQL (empty: none). */
    private record Relation(long oid, String name, long namespace, String kind, List<ColumnDef> columns, long rows,
                            String definition, List<String> defaults) {
        Relation(long oid, String name, long namespace, String kind, List<ColumnDef> columns, long rows,
                 String definition) {
            this(oid, name, namespace, kind, columns, rows, definition, List.of());
        }

        /** Column {@code i}'s default as SQL, or null. */
        String defaultOf(int i) {
            return defaults.isEmpty() ? null : defaults.get(i);
        }
    }

    public List<SystemTable> all() {
        List<SystemTable> all = new ArrayList<>();
        all.add(table(PG_CATALOG, "pg_namespace", cols(oid("oid"), text("nspname"), oid("nspowner"), text("nspacl")),
                () -> List.of(row(PgOids.PG_CATALOG_NAMESPACE, PG_CATALOG, PgOids.OWNER, null),
                        row(PgOids.PUBLIC_NAMESPACE, "public", PgOids.OWNER, null),
                        row(PgOids.INFORMATION_SCHEMA_NAMESPACE, INFORMATION_SCHEMA, PgOids.OWNER, null))));
        all.add(table(PG_CATALOG, "pg_class", cols(oid("oid"), text("relname"), oid("relnamespace"), oid("reltype"),
                oid("reloftype"), oid("relowner"), oid("relam"), oid("relfilenode"), oid("reltablespace"),
                integer("relpages"), real("reltuples"), integer("relallvisible"), oid("reltoastrelid"),
                bool("relhasindex"), bool("relisshared"), text("relpersistence"), text("relkind"),
                integer("relnatts"), integer("relchecks"), bool("relhasrules"), bool("relhastriggers"),
                bool("relhassubclass"), bool("relrowsecurity"), bool("relforcerowsecurity"), bool("relispopulated"),
                text("relreplident"), bool("relispartition"), oid("relrewrite"), text("relacl"), text("reloptions"),
                text("relpartbound")), () -> relations().stream().map(r -> row(r.oid, r.name, r.namespace, 0L, 0L,
                PgOids.OWNER, r.kind.equals("r") ? 2L : 0L, r.oid, 0L, (int) Math.min(Integer.MAX_VALUE,
                        r.rows / 100), (double) r.rows, 0, 0L, false, false, "p", r.kind, r.columns.size(), 0, false,
                false, false, false, false, true, "d", false, 0L, null, null, null)).toList()));
        all.add(table(PG_CATALOG, "pg_attribute", cols(oid("attrelid"), text("attname"), oid("atttypid"),
                integer("attstattarget"), integer("attlen"), integer("attnum"), integer("attndims"),
                integer("attcacheoff"), integer("atttypmod"), bool("attbyval"), text("attalign"), text("attstorage"),
                text("attcompression"), bool("attnotnull"), bool("atthasdef"), bool("atthasmissing"),
                text("attidentity"), text("attgenerated"), bool("attisdropped"), bool("attislocal"),
                integer("attinhcount"), oid("attcollation"), text("attacl"), text("attoptions"),
                text("attfdwoptions")), this::attributes));
        all.add(table(PG_CATALOG, "pg_type", cols(oid("oid"), text("typname"), oid("typnamespace"), oid("typowner"),
                integer("typlen"), bool("typbyval"), text("typtype"), text("typcategory"), bool("typispreferred"),
                bool("typisdefined"), text("typdelim"), oid("typrelid"), oid("typsubscript"), oid("typelem"),
                oid("typarray"), text("typinput"), text("typoutput"), text("typreceive"), text("typsend"),
                text("typmodin"), text("typmodout"), text("typanalyze"), text("typalign"), text("typstorage"),
                bool("typnotnull"), oid("typbasetype"), integer("typtypmod"), integer("typndims"),
                oid("typcollation"), text("typdefaultbin"), text("typdefault"), text("typacl")), this::types));
        all.add(table(PG_CATALOG, "pg_database", cols(oid("oid"), text("datname"), oid("datdba"),
                integer("encoding"), text("datlocprovider"), bool("datistemplate"), bool("datallowconn"),
                integer("datconnlimit"), oid("datfrozenxid"), oid("datminmxid"), oid("dattablespace"),
                text("datcollate"), text("datctype"), text("daticulocale"), text("datcollversion"), text("datacl")),
                () -> List.<Object[]>of(row(PgOids.DATABASE, DATABASE, PgOids.OWNER, 6, "c", false, true, -1, 0L, 0L,
                        PgOids.DEFAULT_TABLESPACE, "C", "C", null, null, null))));
        all.add(table(PG_CATALOG, "pg_roles", cols(oid("oid"), text("rolname"), bool("rolsuper"),
                bool("rolinherit"), bool("rolcreaterole"), bool("rolcreatedb"), bool("rolcanlogin"),
                bool("rolreplication"), integer("rolconnlimit"), text("rolpassword"), text("rolvaliduntil"),
                bool("rolbypassrls"), text("rolconfig")), () -> List.<Object[]>of(row(PgOids.OWNER,
                PgOids.OWNER_NAME, true, true, true, true, true, false, -1, "********", null, true, null))));
        all.add(table(PG_CATALOG, "pg_user", cols(text("usename"), oid("usesysid"), bool("usecreatedb"),
                bool("usesuper"), bool("userepl"), bool("usebypassrls"), text("passwd"), text("valuntil"),
                text("useconfig")), () -> List.<Object[]>of(row(PgOids.OWNER_NAME, PgOids.OWNER, true, true, false,
                true, "********", null, null))));
        all.add(table(PG_CATALOG, "pg_tablespace", cols(oid("oid"), text("spcname"), oid("spcowner"),
                text("spcacl"), text("spcoptions")), () -> List.<Object[]>of(row(PgOids.DEFAULT_TABLESPACE,
                "pg_default", PgOids.OWNER, null, null))));
        all.add(table(PG_CATALOG, "pg_am", cols(oid("oid"), text("amname"), text("amhandler"), text("amtype")),
                () -> List.<Object[]>of(row(2L, "heap", "heap_tableam_handler", "t"))));
        all.add(table(PG_CATALOG, "pg_tables", cols(text("schemaname"), text("tablename"), text("tableowner"),
                text("tablespace"), bool("hasindexes"), bool("hasrules"), bool("hastriggers"), bool("rowsecurity")),
                () -> relations().stream().filter(r -> r.kind.equals("r")).map(r -> row(namespaceName(r.namespace),
                        r.name, PgOids.OWNER_NAME, null, false, false, false, false)).toList()));
        all.add(table(PG_CATALOG, "pg_views", cols(text("schemaname"), text("viewname"), text("viewowner"),
                text("definition")), () -> relations().stream().filter(r -> r.kind.equals("v"))
                .map(r -> row(namespaceName(r.namespace), r.name, PgOids.OWNER_NAME, r.definition)).toList()));
        all.add(table(PG_CATALOG, "pg_settings", cols(text("name"), text("setting"), text("unit"),
                text("category"), text("short_desc"), text("extra_desc"), text("context"), text("vartype"),
                text("source"), text("min_val"), text("max_val"), text("enumvals"), text("boot_val"),
                text("reset_val"), text("sourcefile"), integer("sourceline"), bool("pending_restart")),
                PgCatalogTables::settings));
        all.add(table(PG_CATALOG, "pg_stat_user_tables", cols(oid("relid"), text("schemaname"), text("relname"),
                bigint("seq_scan"), bigint("seq_tup_read"), bigint("idx_scan"), bigint("idx_tup_fetch"),
                bigint("n_tup_ins"), bigint("n_tup_upd"), bigint("n_tup_del"), bigint("n_live_tup"),
                bigint("n_dead_tup")), () -> relations().stream().filter(r -> r.kind.equals("r")
                && r.namespace == PgOids.PUBLIC_NAMESPACE).map(r -> row(r.oid, "public", r.name, null, null, null,
                null, null, null, null, r.rows, 0L)).toList()));
        // Catalogs of things LocusDB does not have: present, so that the joins tools make find nothing.
        // Empty still: the tools that read it expand indkey with _pg_expandarray in a select list, a set-returning
        // call LocusDB does not run yet; pg_indexes lists the indexes.
        all.add(empty("pg_index", cols(oid("indexrelid"), oid("indrelid"), integer("indnatts"),
                integer("indnkeyatts"), bool("indisunique"), bool("indnullsnotdistinct"), bool("indisprimary"),
                bool("indisexclusion"), bool("indimmediate"), bool("indisclustered"), bool("indisvalid"),
                bool("indcheckxmin"), bool("indisready"), bool("indislive"), bool("indisreplident"), text("indkey"),
                text("indcollation"), text("indclass"), text("indoption"), text("indexprs"), text("indpred"))));
        all.add(table(PG_CATALOG, "pg_constraint", cols(oid("oid"), text("conname"), oid("connamespace"), text("contype"),
                bool("condeferrable"), bool("condeferred"), bool("convalidated"), oid("conrelid"), oid("contypid"),
                oid("conindid"), oid("conparentid"), oid("confrelid"), text("confupdtype"), text("confdeltype"),
                text("confmatchtype"), bool("conislocal"), integer("coninhcount"), bool("connoinherit"),
                text("conkey"), text("confkey"), text("conbin")), this::constraints));
        all.add(table(PG_CATALOG, "pg_attrdef", cols(oid("oid"), oid("adrelid"), integer("adnum"), text("adbin")),
                this::attributeDefaults));
        all.add(empty("pg_description", cols(oid("objoid"), oid("classoid"), integer("objsubid"),
                text("description"))));
        all.add(empty("pg_shdescription", cols(oid("objoid"), oid("classoid"), text("description"))));
        all.add(empty("pg_inherits", cols(oid("inhrelid"), oid("inhparent"), integer("inhseqno"),
                bool("inhdetachpending"))));
        all.add(empty("pg_trigger", cols(oid("oid"), oid("tgrelid"), text("tgname"), bool("tgisinternal"))));
        all.add(empty("pg_rewrite", cols(oid("oid"), text("rulename"), oid("ev_class"))));
        all.add(empty("pg_depend", cols(oid("classid"), oid("objid"), integer("objsubid"), oid("refclassid"),
                oid("refobjid"), integer("refobjsubid"), text("deptype"))));
        all.add(empty("pg_sequence", cols(oid("seqrelid"), oid("seqtypid"), bigint("seqstart"))));
        all.add(empty("pg_enum", cols(oid("oid"), oid("enumtypid"), real("enumsortorder"), text("enumlabel"))));
        all.add(empty("pg_extension", cols(oid("oid"), text("extname"), oid("extowner"), oid("extnamespace"),
                bool("extrelocatable"), text("extversion"))));
        all.add(empty("pg_matviews", cols(text("schemaname"), text("matviewname"), text("matviewowner"),
                text("tablespace"), bool("hasindexes"), bool("ispopulated"), text("definition"))));
        all.add(table(PG_CATALOG, "pg_indexes", cols(text("schemaname"), text("tablename"), text("indexname"),
                text("tablespace"), text("indexdef")), () -> indexes().stream().map(i -> row("public", i.table(),
                i.name(), null, i.definition())).toList()));
        all.add(empty("pg_policy", cols(oid("oid"), text("polname"), oid("polrelid"), text("polcmd"),
                bool("polpermissive"), text("polroles"), text("polqual"), text("polwithcheck"))));
        all.add(empty("pg_proc", cols(oid("oid"), text("proname"), oid("pronamespace"), oid("proowner"),
                oid("prolang"), text("prokind"), bool("proretset"), oid("prorettype"), text("proargtypes"),
                text("proallargtypes"), text("proargmodes"), text("proargnames"), text("prosrc"))));
        all.add(empty("pg_foreign_table", cols(oid("ftrelid"), oid("ftserver"), text("ftoptions"))));
        all.add(empty("pg_partitioned_table", cols(oid("partrelid"), text("partstrat"), integer("partnatts"))));
        all.add(empty("pg_collation", cols(oid("oid"), text("collname"), oid("collnamespace"))));
        all.add(empty("pg_statistic_ext", cols(oid("oid"), oid("stxrelid"), text("stxname"), oid("stxnamespace"),
                oid("stxowner"), integer("stxstattarget"), text("stxkeys"), text("stxkind"))));
        all.add(empty("pg_publication", cols(oid("oid"), text("pubname"), oid("pubowner"), bool("puballtables"),
                bool("pubinsert"), bool("pubupdate"), bool("pubdelete"), bool("pubtruncate"), bool("pubviaroot"))));
        all.add(empty("pg_publication_rel", cols(oid("oid"), oid("prpubid"), oid("prrelid"), text("prqual"),
                text("prattrs"))));
        all.add(empty("pg_publication_namespace", cols(oid("oid"), oid("pnpubid"), oid("pnnspid"))));
        all.add(empty("pg_subscription", cols(oid("oid"), text("subname"))));
        all.add(empty("pg_event_trigger", cols(oid("oid"), text("evtname"))));
        all.add(empty("pg_auth_members", cols(oid("oid"), oid("roleid"), oid("member"), oid("grantor"),
                bool("admin_option"), bool("inherit_option"), bool("set_option"))));
        informationSchema(all);
        return all.stream().map(t -> t.schema() != null && t.schema().equals(PG_CATALOG)
                && ARRAY_COLUMNS.containsKey(t.name()) ? t.withArrays(ARRAY_COLUMNS.get(t.name())) : t).toList();
    }

    /**
     * The catalog columns that queries subscript or test with {@code = ANY(column)}, seen as arrays (PostgreSQL declares them int2vector, which reads as
     * an array). PostgreSQL's other array columns stay text here: tools compare them with literals such as
     * {@code '{0}'} and test them with {@code = ANY(column)}, which LocusDB does not read as array operations yet.
     */
    /** information_schema's datetime_precision: fractional digits of seconds (none for DATE, 6 for TIMESTAMP). */
    private static Integer datetimePrecision(ColumnType t) {
        return switch (t.kind()) {
            case DATE -> 0;
            case TIMESTAMP, TIMESTAMP_TZ -> 6;
            default -> null;
        };
    }

    private static final Map<String, Map<String, ColumnType>> ARRAY_COLUMNS = Map.of(
            "pg_publication_rel", Map.of("prattrs", ColumnType.INTEGER),
            "pg_constraint", Map.of("conkey", ColumnType.INTEGER, "confkey", ColumnType.INTEGER));

    private void informationSchema(List<SystemTable> all) {
        all.add(table(INFORMATION_SCHEMA, "schemata", cols(text("catalog_name"), text("schema_name"),
                text("schema_owner"), text("default_character_set_catalog"), text("default_character_set_schema"),
                text("default_character_set_name"), text("sql_path")), () -> List.of(
                row(DATABASE, PG_CATALOG, PgOids.OWNER_NAME, null, null, null, null),
                row(DATABASE, "public", PgOids.OWNER_NAME, null, null, null, null),
                row(DATABASE, INFORMATION_SCHEMA, PgOids.OWNER_NAME, null, null, null, null))));
        all.add(table(INFORMATION_SCHEMA, "tables", cols(text("table_catalog"), text("table_schema"),
                text("table_name"), text("table_type"), text("self_referencing_column_name"),
                text("reference_generation"), text("user_defined_type_catalog"), text("user_defined_type_schema"),
                text("user_defined_type_name"), text("is_insertable_into"), text("is_typed"), text("commit_action")),
                () -> relations().stream().map(r -> row(DATABASE, namespaceName(r.namespace), r.name,
                        r.kind.equals("r") ? (r.namespace == PgOids.PUBLIC_NAMESPACE ? "BASE TABLE" : "SYSTEM TABLE")
                                : "VIEW", null, null, null, null, null, r.kind.equals("r") ? "YES" : "NO", "NO", null))
                        .toList()));
        all.add(table(INFORMATION_SCHEMA, "columns", cols(text("table_catalog"), text("table_schema"),
                text("table_name"), text("column_name"), integer("ordinal_position"), text("column_default"),
                text("is_nullable"), text("data_type"), integer("character_maximum_length"),
                integer("character_octet_length"), integer("numeric_precision"), integer("numeric_precision_radix"),
                integer("numeric_scale"), integer("datetime_precision"), text("interval_type"),
                integer("interval_precision"), text("character_set_catalog"), text("character_set_schema"),
                text("character_set_name"), text("collation_catalog"), text("collation_schema"),
                text("collation_name"), text("domain_catalog"), text("domain_schema"), text("domain_name"),
                text("udt_catalog"), text("udt_schema"), text("udt_name"), text("is_identity"),
                text("is_generated"), text("is_updatable")), this::informationColumns));
        all.add(table(INFORMATION_SCHEMA, "views", cols(text("table_catalog"), text("table_schema"),
                text("table_name"), text("view_definition"), text("check_option"), text("is_updatable"),
                text("is_insertable_into"), text("is_trigger_updatable"), text("is_trigger_deletable"),
                text("is_trigger_insertable_into")), () -> relations().stream().filter(r -> r.kind.equals("v"))
                .map(r -> row(DATABASE, namespaceName(r.namespace), r.name, r.definition, "NONE", "NO", "NO", "NO",
                        "NO", "NO")).toList()));
        all.add(table(INFORMATION_SCHEMA, "key_column_usage", cols(text("constraint_catalog"),
                text("constraint_schema"), text("constraint_name"), text("table_catalog"), text("table_schema"),
                text("table_name"), text("column_name"), integer("ordinal_position"),
                integer("position_in_unique_constraint")), this::keyColumnUsage));
        all.add(table(INFORMATION_SCHEMA, "table_constraints", cols(text("constraint_catalog"),
                text("constraint_schema"), text("constraint_name"), text("table_catalog"), text("table_schema"),
                text("table_name"), text("constraint_type"), text("is_deferrable"), text("initially_deferred"),
                text("enforced"), text("nulls_distinct")), () -> keyedTables().stream().map(t -> row(DATABASE,
                "public", KeyViolationException.constraintName(t.name()), DATABASE, "public", t.name(),
                "PRIMARY KEY", "NO", "NO", "YES", null)).toList()));
        all.add(SystemTable.empty(INFORMATION_SCHEMA, "referential_constraints", cols(text("constraint_catalog"),
                text("constraint_schema"), text("constraint_name"), text("unique_constraint_catalog"),
                text("unique_constraint_schema"), text("unique_constraint_name"), text("match_option"),
                text("update_rule"), text("delete_rule"))));
        all.add(SystemTable.empty(INFORMATION_SCHEMA, "routines", cols(text("specific_catalog"),
                text("specific_schema"), text("specific_name"), text("routine_catalog"), text("routine_schema"),
                text("routine_name"), text("routine_type"), text("data_type"))));
    }

    /** An index as the catalogs list it: a primary key's or a secondary one. */
    private record IndexRow(String name, String table, String definition) {
    }

    /** Every table's primary key index (named as its constraint) and secondary indexes. */
    private List<IndexRow> indexes() {
        List<IndexRow> rows = new ArrayList<>();
        for (Table t : catalog.tables()) {
            if (t.schema().isKeyed()) {
                List<String> key = t.schema().primaryKeyNames();
                IndexDefinition asIndex = IndexDefinition.ascending(KeyViolationException.constraintName(t.name()),
                        t.name(), key, true);
                rows.add(new IndexRow(asIndex.name(), t.name(), asIndex.sql()));
            }
            for (IndexDefinition i : t.indexes()) {
                rows.add(new IndexRow(i.name(), t.name(), i.sql()));
            }
        }
        return rows;
    }

    private List<Table> keyedTables() {
        return catalog.tables().stream().filter(t -> t.schema().isKeyed()).toList();
    }

    /** A primary key per keyed table: contype 'p', conkey the key's attribute numbers (from 1) as an array. */
    private List<Object[]> constraints() {
        List<Object[]> rows = new ArrayList<>();
        for (Table t : keyedTables()) {
            String key = t.schema().primaryKey().stream().map(k -> String.valueOf(k + 1))
                    .collect(Collectors.joining(",", "{", "}"));
            String name = KeyViolationException.constraintName(t.name());
            rows.add(row(PgOids.relation("public", name), name, PgOids.PUBLIC_NAMESPACE, "p", false, false, true,
                    PgOids.relation("public", t.name()), 0L, 0L, 0L, 0L, " ", " ", " ", true, 0, true, key, null,
                    null));
        }
        return rows;
    }

    /** The primary keys' columns, one row per column in key order. */
    private List<Object[]> keyColumnUsage() {
        List<Object[]> rows = new ArrayList<>();
        for (Table t : keyedTables()) {
            List<String> names = t.schema().primaryKeyNames();
            for (int i = 0; i < names.size(); i++) {
                rows.add(row(DATABASE, "public", KeyViolationException.constraintName(t.name()), DATABASE, "public",
                        t.name(), names.get(i), i + 1, null));
            }
        }
        return rows;
    }

    /** Every table and view the catalogs list: the user's, LocusDB's own, and the catalogs themselves. */
    private List<Relation> relations() {
        List<Relation> relations = new ArrayList<>();
        for (Table t : catalog.tables()) {
            long rows;
            try (TableSnapshot s = t.snapshot()) {
                rows = s.visibleRows();
            }
            relations.add(new Relation(PgOids.relation("public", t.name()), t.name(), PgOids.PUBLIC_NAMESPACE, "r",
                    t.schema().columns(), rows, null, defaultsOf(t)));
        }
        for (ViewDefinition v : catalog.views()) {
            relations.add(new Relation(PgOids.relation("public", v.name()), v.name(), PgOids.PUBLIC_NAMESPACE, "v",
                    v.columns().columns(), 0, v.sql()));
        }
        for (SystemTable s : ownSystemTables) {
            relations.add(new Relation(PgOids.relation("public", s.name()), s.name(), PgOids.PUBLIC_NAMESPACE, "v",
                    s.columns(), 0, null));
        }
        for (SystemTable s : catalogTables()) {
            boolean pg = s.schema().equals(PG_CATALOG);
            relations.add(new Relation(PgOids.relation(s.schema(), s.name()), s.name(),
                    pg ? PgOids.PG_CATALOG_NAMESPACE : PgOids.INFORMATION_SCHEMA_NAMESPACE, pg ? "r" : "v",
                    s.columns(), 0, null));
        }
        return relations;
    }

    /** The catalogs' own tables, described without their rows (which would ask for relations again). */
    private List<SystemTable> catalogTables() {
        List<SystemTable> described = cachedShapes;
        if (described == null) {
            // Building the tables computes no rows (those are suppliers), so this does not recurse.
            described = all();
            cachedShapes = described;
        }
        return described;
    }

    private volatile List<SystemTable> cachedShapes;

    /** A table's column defaults as PostgreSQL shows them ({@code 'new'::character varying}, {@code now()}). */
    private static List<String> defaultsOf(Table table) {
        if (table.defaults().isEmpty()) {
            return List.of();
        }
        List<String> shown = new ArrayList<>();
        for (int c = 0; c < table.schema().size(); c++) {
            ColumnDefault d = table.defaultOf(c);
            ColumnType type = table.schema().column(c).type();
            shown.add(d == null ? null : switch (d.kind()) {
                case CURRENT_TIMESTAMP -> "CURRENT_TIMESTAMP";
                case CURRENT_DATE -> "CURRENT_DATE";
                case VALUE -> switch (type.kind()) {
                    case INTEGER, BIGINT, DECIMAL, DOUBLE -> PhysicalText.of(type, d.value());
                    case BOOLEAN -> ((Long) d.value()) != 0 ? "true" : "false";
                    default -> "'" + PhysicalText.of(type, d.value()).replace("'", "''") + "'::"
                            + PgTypeInfo.sqlName(type);
                };
            });
        }
        return shown;
    }

    /**
     * One row per column with a default: {@code adbin} holds the default as SQL text (LocusDB keeps no parsed
     * expression trees), which {@code pg_get_expr} gives back as it is, so that {@code \d} and tools that show a
     * column's default read it as PostgreSQL shows it.
     */
    private List<Object[]> attributeDefaults() {
        List<Object[]> rows = new ArrayList<>();
        for (Relation r : relations()) {
            for (int c = 0; c < r.columns.size(); c++) {
                String expression = r.defaultOf(c);
                if (expression != null) {
                    // An oid of its own in the user range, from the column's qualified name, as a relation's is.
                    rows.add(row(PgOids.relation("pg_attrdef", namespaceName(r.namespace) + "." + r.name + "."
                            + (c + 1)), r.oid, c + 1, expression));
                }
            }
        }
        return rows;
    }

    private List<Object[]> attributes() {
        List<Object[]> rows = new ArrayList<>();
        for (Relation r : relations()) {
            int n = 1;
            for (ColumnDef c : r.columns) {
                PgTypeInfo type = PgTypeInfo.of(c.type());
                boolean hasDefault = r.defaultOf(n - 1) != null;
                rows.add(row(r.oid, c.name(), type.oid(), -1, type.length(), n++, 0, -1, PgTypeInfo.typmod(c.type()),
                        type.length() > 0 && type.length() <= 8, type.length() == 8 ? "d" : "i",
                        type.length() > 0 ? "p" : "x", "", !c.nullable(), hasDefault, false, "", "", false, true, 0,
                        type.category().equals("S") ? PgOids.DEFAULT_COLLATION : 0L, null, null, null));
            }
        }
        return rows;
    }

    private List<Object[]> types() {
        List<Object[]> rows = new ArrayList<>();
        for (PgTypeInfo t : PgTypeInfo.values()) {
            rows.add(row(t.oid(), t.typeName(), PgOids.PG_CATALOG_NAMESPACE, PgOids.OWNER, t.length(),
                    t.length() > 0 && t.length() <= 8, "b", t.category(), false, true, ",", 0L, 0L, 0L,
                    t.arrayOid(), t.typeName() + "in", t.typeName() + "out", t.typeName() + "recv",
                    t.typeName() + "send", "-", "-", "-", t.length() == 8 ? "d" : "i", t.length() > 0 ? "p" : "x",
                    false, 0L, -1, 0, t.category().equals("S") ? PgOids.DEFAULT_COLLATION : 0L, null, null, null));
        }
        return rows;
    }

    private List<Object[]> informationColumns() {
        List<Object[]> rows = new ArrayList<>();
        for (Relation r : relations()) {
            int n = 1;
            for (ColumnDef c : r.columns) {
                ColumnType t = c.type();
                PgTypeInfo type = PgTypeInfo.of(t);
                boolean chars = t.kind() == TypeKind.VARCHAR
                        || t.kind() == TypeKind.CHAR;
                Integer maxLength = chars && t.length() > 0 ? t.length() : null;
                Integer precision = switch (t.kind()) {
                    case INTEGER -> 32;
                    case BIGINT -> 64;
                    case DOUBLE -> 53;
                    case DECIMAL -> t.precision();
                    default -> null;
                };
                Integer radix = precision == null ? null : t.kind() == TypeKind.DECIMAL
                        ? 10 : 2;
                Integer scale = switch (t.kind()) {
                    case INTEGER, BIGINT -> 0;
                    case DECIMAL -> t.scale();
                    default -> null;
                };
                rows.add(row(DATABASE, namespaceName(r.namespace), r.name, c.name(), n, r.defaultOf(n++ - 1),
                        c.nullable() ? "YES" : "NO", PgTypeInfo.sqlName(t), maxLength,
                        maxLength == null ? null : maxLength * 4, precision, radix, scale,
                        datetimePrecision(t), null, null, null, null,
                        null, null, null, null, null, null, null, DATABASE, PG_CATALOG, type.typeName(), "NO", "NEVER",
                        r.kind.equals("r") ? "YES" : "NO"));
            }
        }
        return rows;
    }

    private static List<Object[]> settings() {
        List<Object[]> rows = new ArrayList<>();
        String[][] settings = {
                {"default_transaction_isolation", "read committed", "enum"},
                {"max_index_keys", "32", "integer"},
                {"max_identifier_length", "63", "integer"},
                {"server_version", "16.0", "string"},
                {"server_version_num", "160000", "integer"},
                {"server_encoding", "UTF8", "string"},
                {"standard_conforming_strings", "on", "bool"},
                {"integer_datetimes", "on", "bool"},
                {"TimeZone", "UTC", "string"},
                {"DateStyle", "ISO, MDY", "string"},
                {"search_path", "\"$user\", public", "string"},
                {"block_size", "8192", "integer"},
                {"max_connections", "512", "integer"}};
        for (String[] s : settings) {
            rows.add(row(s[0], s[1], null, "LocusDB", "", null, "user", s[2], "default", null, null, null, s[1],
                    s[1], null, null, false));
        }
        return rows;
    }

    private static String namespaceName(long namespace) {
        return namespace == PgOids.PG_CATALOG_NAMESPACE ? PG_CATALOG
                : namespace == PgOids.INFORMATION_SCHEMA_NAMESPACE ? INFORMATION_SCHEMA : "public";
    }

    private static SystemTable table(String schema, String name, List<ColumnDef> columns,
                                     Supplier<List<Object[]>> rows) {
        return new SystemTable(schema, name, columns, rows);
    }

    private static SystemTable empty(String name, List<ColumnDef> columns) {
        return SystemTable.empty(PG_CATALOG, name, columns);
    }

    private static List<ColumnDef> cols(ColumnDef... columns) {
        return List.of(columns);
    }

    private static Object[] row(Object... values) {
        return values;
    }

    private static ColumnDef oid(String name) {
        return ColumnDef.of(name, ColumnType.BIGINT);
    }

    private static ColumnDef bigint(String name) {
        return ColumnDef.of(name, ColumnType.BIGINT);
    }

    private static ColumnDef integer(String name) {
        return ColumnDef.of(name, ColumnType.INTEGER);
    }

    private static ColumnDef real(String name) {
        return ColumnDef.of(name, ColumnType.DOUBLE);
    }

    private static ColumnDef bool(String name) {
        return ColumnDef.of(name, ColumnType.BOOLEAN);
    }

    private static ColumnDef text(String name) {
        return ColumnDef.of(name, ColumnType.VARCHAR);
    }
}
