package io.locusdb.trino;

import io.trino.spi.TrinoException;
import io.trino.spi.StandardErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * A catalog's properties: {@code locusdb.servers=host:port,...} (required), and what the JDBC driver takes for a
 * connection ({@code locusdb.user}, {@code locusdb.password}, {@code locusdb.token}, {@code locusdb.ssl},
 * {@code locusdb.sslrootcert}), {@code locusdb.pushdown} and {@code locusdb.partitioning} (both default true). A property this connector does not
 * know is an error, as Trino's own connectors treat them, so that a mistyped name is not silently ignored.
 */
record CatalogSettings(List<String> servers, Properties connection, boolean pushdown, boolean partitioning) {
    static final String SERVERS = "locusdb.servers";
    /** {@code false}: no filter, limit, top N or column list reaches the servers (to measure what pushdown saves). */
    static final String PUSHDOWN = "locusdb.pushdown";
    /** {@code false}: tables' partitioning is not shown to Trino (every join and grouping exchanges rows). */
    static final String PARTITIONING = "locusdb.partitioning";
    private static final Set<String> DRIVER = Set.of("user", "password", "token", "ssl", "sslrootcert");

    static CatalogSettings of(Map<String, String> config) {
        Set<String> unknown = new TreeSet<>();
        Properties connection = new Properties();
        List<String> servers = new ArrayList<>();
        boolean pushdown = true;
        boolean partitioning = true;
        for (Map.Entry<String, String> e : config.entrySet()) {
            String key = e.getKey();
            if (key.equals(SERVERS)) {
                for (String server : e.getValue().split(",")) {
                    String s = server.strip();
                    if (!s.matches("[^:/?\\s]+:\\d{1,5}")) {
                        throw invalid(SERVERS + ": '" + s + "' is not host:port");
                    }
                    if (servers.contains(s)) {
                        throw invalid(SERVERS + ": '" + s + "' is named twice");
                    }
                    servers.add(s);
                }
            } else if (key.equals(PUSHDOWN)) {
                pushdown = flag(PUSHDOWN, e.getValue());
            } else if (key.equals(PARTITIONING)) {
                partitioning = flag(PARTITIONING, e.getValue());
            } else if (key.startsWith("locusdb.") && DRIVER.contains(key.substring("locusdb.".length()))) {
                connection.setProperty(key.substring("locusdb.".length()), e.getValue());
            } else {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            throw invalid("unknown catalog properties " + unknown + "; this connector takes " + SERVERS + ", "
                    + PUSHDOWN + ", " + PARTITIONING + " and " + DRIVER.stream().map(d -> "locusdb." + d).sorted().toList());
        }
        if (servers.isEmpty()) {
            throw invalid(SERVERS + " is required: the LocusDB servers of the catalog, host:port,...");
        }
        return new CatalogSettings(List.copyOf(servers), connection, pushdown, partitioning);
    }

    private static boolean flag(String name, String value) {
        if (!value.equals("true") && !value.equals("false")) {
            throw invalid(name + " is true or false, not '" + value + "'");
        }
        return Boolean.parseBoolean(value);
    }

    private static TrinoException invalid(String message) {
        return new TrinoException(StandardErrorCode.CONFIGURATION_INVALID, message);
    }
}
