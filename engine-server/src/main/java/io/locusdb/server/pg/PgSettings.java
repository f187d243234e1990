package io.locusdb.server.pg;

import io.locusdb.core.storage.type.TimeZones;
import io.locusdb.core.storage.type.ValueFormatException;
import io.locusdb.core.system.PgCatalogTables;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A PostgreSQL session's run-time settings ({@code SET}, {@code SHOW}, {@code RESET}, {@code current_setting}). The
 * ones marked reported go to the client as ParameterStatus at start and whenever they change, as PostgreSQL does.
 * Most settings only have to read back what was set; those that change what the server does are
 * {@code statement_timeout} and {@code application_name}. Names are case-insensitive.
 */
public final class PgSettings {
    /** The PostgreSQL version LocusDB answers as: new enough that drivers take their modern paths. */
    public static final String SERVER_VERSION = "16.0";
    public static final String SERVER_VERSION_NUM = "160000";
    /** The one database's name, as {@code current_database()} and the catalogs give it. */
    public static final String DATABASE = PgCatalogTables.DATABASE;

    /** Settings PostgreSQL reports with ParameterStatus. */
    public static final Set<String> REPORTED = Set.of("application_name", "client_encoding", "DateStyle",
            "default_transaction_read_only", "in_hot_standby", "integer_datetimes", "IntervalStyle", "is_superuser",
            "scram_iterations", "server_encoding", "server_version", "session_authorization",
            "standard_conforming_strings", "TimeZone");

    /** Settings a client may not change. */
    private static final Set<String> READ_ONLY = Set.of("server_version", "server_version_num", "server_encoding",
            "integer_datetimes", "is_superuser", "max_identifier_length", "block_size", "in_hot_standby");

    private final Map<String, String> defaults = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final Map<String, String> values = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    /** The TimeZone setting read as a zone, and who is told when it changes (the engine session). */
    private ZoneId timeZone = TimeZones.DEFAULT;
    private Consumer<ZoneId> timeZoneListener = zone -> {
    };

    public PgSettings(String user, boolean superuser) {
        defaults.put("application_name", "");
        defaults.put("client_encoding", "UTF8");
        defaults.put("DateStyle", "ISO, MDY");
        defaults.put("default_transaction_read_only", "off");
        defaults.put("default_transaction_isolation", "read committed");
        defaults.put("transaction_isolation", "read committed");
        defaults.put("in_hot_standby", "off");
        defaults.put("integer_datetimes", "on");
        defaults.put("IntervalStyle", "postgres");
        defaults.put("is_superuser", superuser ? "on" : "off");
        defaults.put("scram_iterations", "4096");
        defaults.put("server_encoding", "UTF8");
        defaults.put("server_version", SERVER_VERSION);
        defaults.put("server_version_num", SERVER_VERSION_NUM);
        defaults.put("session_authorization", user);
        defaults.put("standard_conforming_strings", "on");
        defaults.put("TimeZone", "UTC");
        defaults.put("search_path", "\"$user\", public");
        defaults.put("extra_float_digits", "1");
        defaults.put("statement_timeout", "0");
        defaults.put("lock_timeout", "0");
        defaults.put("idle_in_transaction_session_timeout", "0");
        defaults.put("max_identifier_length", "63");
        defaults.put("block_size", "8192");
        defaults.put("lc_messages", "C");
        defaults.put("lc_monetary", "C");
        defaults.put("lc_numeric", "C");
        defaults.put("lc_time", "C");
        defaults.put("timezone_abbreviations", "Default");
        defaults.put("bytea_output", "hex");
        defaults.put("client_min_messages", "notice");
        defaults.put("synchronous_commit", "on");
        defaults.put("max_index_keys", "32");
        defaults.put("jit", "off");
        defaults.put("row_security", "on");
        defaults.put("transaction_read_only", "off");
        defaults.put("escape_string_warning", "on");
        defaults.put("work_mem", "4MB");
        defaults.put("max_connections", "512");
    }

    /** The setting's value, or null when there is no such setting. */
    public String get(String name) {
        String v = values.get(name);
        return v != null ? v : defaults.get(name);
    }

    /** Whether {@code name} is a setting this server knows (custom settings with a dot are always accepted). */
    public boolean known(String name) {
        return defaults.containsKey(name) || values.containsKey(name);
    }

    /** The outcome of a SET: the canonical name to report (null when not reported) and whether it was ignored. */
    public record Change(String reportedName, String value, boolean ignored) {
    }

    /**
     * Sets {@code name} (null value = back to its default). Unknown names without a dot are refused (42704) as in
     * PostgreSQL; read-only ones are refused (55P02).
     */
    public Change set(String name, String value) {
        if (!known(name) && !name.contains(".")) {
            throw new PgDataException("42704", "unrecognized configuration parameter \"" + name + "\"");
        }
        if (READ_ONLY.stream().anyMatch(name::equalsIgnoreCase)) {
            throw new PgDataException("55P02", "parameter \"" + name + "\" cannot be changed");
        }
        String canonical = canonical(name);
        String v = value == null ? defaults.get(canonical) : value;
        boolean ignored = false;
        switch (canonical.toLowerCase(Locale.ROOT)) {
            case "client_encoding" -> {
                // The server always speaks UTF-8; asking for another encoding is answered with what it speaks.
                ignored = v != null && !v.equalsIgnoreCase("UTF8") && !v.equalsIgnoreCase("UTF-8")
                        && !v.equalsIgnoreCase("unicode");
                v = "UTF8";
            }
            case "datestyle" -> {
                ignored = v != null && !v.toUpperCase(Locale.ROOT).contains("ISO");
                v = "ISO, MDY";
            }
            case "statement_timeout" -> v = Long.toString(timeoutMillis(v));
            case "timezone" -> {
                ZoneId zone;
                try {
                    zone = TimeZones.setting(v);
                } catch (ValueFormatException e) {
                    throw new PgDataException("22023", "invalid value for parameter \"TimeZone\": \"" + v + "\"");
                }
                timeZone = zone;
                timeZoneListener.accept(zone);
            }
            default -> {
            }
        }
        if (v == null) {
            values.remove(canonical);
        } else {
            values.put(canonical, v);
        }
        String reported = REPORTED.stream().filter(canonical::equalsIgnoreCase).findFirst().orElse(null);
        return new Change(reported, get(canonical), ignored);
    }

    /** RESET ALL: every setting back to its default. */
    public void resetAll() {
        values.clear();
        timeZone = TimeZones.DEFAULT;
        timeZoneListener.accept(timeZone);
    }

    /** The session's time zone, as the TimeZone setting names it. */
    public ZoneId timeZone() {
        return timeZone;
    }

    /** Tells {@code listener} the session's zone now and whenever TimeZone changes. */
    public void onTimeZone(Consumer<ZoneId> listener) {
        timeZoneListener = listener;
        listener.accept(timeZone);
    }

    /** Every setting, for SHOW ALL and {@code pg_settings}. */
    public Map<String, String> all() {
        Map<String, String> all = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        all.putAll(defaults);
        all.putAll(values);
        return all;
    }

    private String canonical(String name) {
        for (String known : defaults.keySet()) {
            if (known.equalsIgnoreCase(name)) {
                return known;
            }
        }
        return name.toLowerCase(Locale.ROOT);
    }

    /** {@code statement_timeout} in milliseconds. */
    public long statementTimeoutMillis() {
        return timeoutMillis(get("statement_timeout"));
    }

    /** A duration setting: a bare number is milliseconds; units ms, s, min, h, d as PostgreSQL reads them. */
    static long timeoutMillis(String text) {
        if (text == null) {
            return 0;
        }
        String t = text.strip().toLowerCase(Locale.ROOT);
        int split = 0;
        while (split < t.length() && (Character.isDigit(t.charAt(split)) || t.charAt(split) == '.')) {
            split++;
        }
        if (split == 0) {
            throw new PgDataException("22023", "invalid value for a duration: \"" + text + "\"");
        }
        double n = Double.parseDouble(t.substring(0, split));
        String unit = t.substring(split).strip();
        double millis = switch (unit) {
            case "", "ms" -> n;
            case "s" -> n * 1000;
            case "min" -> n * 60_000;
            case "h" -> n * 3_600_000;
            case "d" -> n * 86_400_000;
            default -> throw new PgDataException("22023", "invalid unit \"" + unit + "\" in \"" + text
                    + "\": valid units are ms, s, min, h and d");
        };
        return (long) millis;
    }
}
