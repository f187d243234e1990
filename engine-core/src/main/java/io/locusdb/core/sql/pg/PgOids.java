package io.locusdb.core.sql.pg;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * Object identifiers for PostgreSQL's catalogs. PostgreSQL's own objects keep the values PostgreSQL gives them (tools
 * hard-code some, e.g. {@code 'pg_class'::regclass} is 1259); a user's table or view gets one derived from its schema
 * and name, so it stays the same across restarts and is the same on every server holding that table.
 */
public final class PgOids {
    public static final long OWNER = 10;
    public static final String OWNER_NAME = "locus";
    public static final long DATABASE = 16_384;
    public static final long PG_CATALOG_NAMESPACE = 11;
    public static final long PUBLIC_NAMESPACE = 2200;
    public static final long INFORMATION_SCHEMA_NAMESPACE = 13_183;
    public static final long DEFAULT_TABLESPACE = 1663;
    public static final long DEFAULT_COLLATION = 100;
    /** User objects start here in PostgreSQL. */
    private static final long FIRST_USER_OID = 16_385;
    private static final long USER_OID_RANGE = 2_000_000_000L;

    private static final Map<String, Long> FIXED = Map.ofEntries(Map.entry("pg_catalog.pg_type", 1247L),
            Map.entry("pg_catalog.pg_attribute", 1249L), Map.entry("pg_catalog.pg_proc", 1255L),
            Map.entry("pg_catalog.pg_class", 1259L), Map.entry("pg_catalog.pg_database", 1262L),
            Map.entry("pg_catalog.pg_namespace", 2615L), Map.entry("pg_catalog.pg_description", 2609L),
            Map.entry("pg_catalog.pg_index", 2610L), Map.entry("pg_catalog.pg_constraint", 2606L),
            Map.entry("pg_catalog.pg_attrdef", 2604L), Map.entry("pg_catalog.pg_am", 2601L),
            Map.entry("pg_catalog.pg_depend", 2608L), Map.entry("pg_catalog.pg_inherits", 2611L),
            Map.entry("pg_catalog.pg_trigger", 2620L), Map.entry("pg_catalog.pg_rewrite", 2618L),
            Map.entry("pg_catalog.pg_tablespace", 1213L), Map.entry("pg_catalog.pg_extension", 3079L),
            Map.entry("pg_catalog.pg_enum", 3501L), Map.entry("pg_catalog.pg_collation", 3456L),
            Map.entry("pg_catalog.pg_sequence", 2224L), Map.entry("pg_catalog.pg_policy", 3256L));

    private PgOids() {
    }

    /** The OID of table or view {@code name} in {@code schema} (PostgreSQL's own for its catalogs). */
    public static long relation(String schema, String name) {
        String key = schema.toLowerCase(Locale.ROOT) + "." + name.toLowerCase(Locale.ROOT);
        Long fixed = FIXED.get(key);
        if (fixed != null) {
            return fixed;
        }
        // FNV-1a over the qualified name: stable, and spread well enough that two names rarely meet.
        long hash = 0xcbf29ce484222325L;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xFF;
            hash *= 0x100000001b3L;
        }
        return FIRST_USER_OID + Math.floorMod(hash, USER_OID_RANGE);
    }

    /** The OID of a table or view named as PostgreSQL's regclass reads it: {@code t}, {@code schema.t}. */
    public static long regclass(String text) {
        String t = text.strip().replace("\"", "");
        int dot = t.lastIndexOf('.');
        if (dot >= 0) {
            return relation(t.substring(0, dot), t.substring(dot + 1));
        }
        String key = "pg_catalog." + t.toLowerCase(Locale.ROOT);
        return FIXED.containsKey(key) || t.toLowerCase(Locale.ROOT).startsWith("pg_") ? relation("pg_catalog", t)
                : relation("public", t);
    }
}
