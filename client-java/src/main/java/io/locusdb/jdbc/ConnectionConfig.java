package io.locusdb.jdbc;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * A parsed {@code jdbc:locusdb://host[:port][/database][?key=value&...]} URL merged with connection Properties
 * (a Properties entry overrides the same URL parameter). Unknown URL parameters are refused (a typo in a URL should
 * not silently drop a setting); unknown Properties entries are ignored, since generic tools pass their own.
 */
record ConnectionConfig(String host, int port, String database, String user, String password, String token,
                        boolean ssl, String sslTrustStore, String sslTrustStorePassword, boolean sslVerify,
                        int fetchSize, int connectTimeoutSeconds, int socketTimeoutSeconds, String url) {
    static final String PREFIX = "jdbc:locusdb:";
    static final int DEFAULT_PORT = 5499;
    static final int DEFAULT_CONNECT_TIMEOUT_SECONDS = 10;

    /** The settings, their descriptions and (for booleans) choices, as getPropertyInfo reports them. */
    static final Map<String, String> SETTINGS = settings();

    private static Map<String, String> settings() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("user", "user name (with password; empty in trust mode or with a token)");
        m.put("password", "password of the user (also the LOCUS_PASSWORD environment variable of the locus shell)");
        m.put("token", "access token instead of user and password");
        m.put("ssl", "true: TLS (the preamble is the first thing inside the TLS session); default false");
        m.put("sslTrustStore", "trust store file (PKCS12 or JKS) holding the server's certificate or its CA;"
                + " default: the JVM's trust store");
        m.put("sslTrustStorePassword", "password of sslTrustStore");
        m.put("sslVerify", "false: accept any server certificate and host name (testing only); default true");
        m.put("fetchSize", "default rows per fetch (credit in batches of 4096 rows); 0 = the driver's default"
                + " of 2 batches");
        m.put("connectTimeout", "seconds to wait for the TCP connection and the handshake; default "
                + DEFAULT_CONNECT_TIMEOUT_SECONDS + " (or DriverManager's login timeout)");
        m.put("socketTimeout", "seconds a read may block before the connection is given up; 0 (default) = never");
        return m;
    }

    static boolean accepts(String url) {
        return url != null && url.regionMatches(true, 0, PREFIX, 0, PREFIX.length());
    }

    static ConnectionConfig parse(String url, Properties info) throws SQLException {
        if (!accepts(url)) {
            throw bad(url, "it does not start with " + PREFIX);
        }
        String rest = url.substring(PREFIX.length());
        if (!rest.startsWith("//")) {
            throw bad(url, "expected // after " + PREFIX + " (jdbc:locusdb://host:port/database)");
        }
        rest = rest.substring(2);
        String query = "";
        int q = rest.indexOf('?');
        if (q >= 0) {
            query = rest.substring(q + 1);
            rest = rest.substring(0, q);
        }
        String authority = rest;
        String database = "";
        int slash = rest.indexOf('/');
        if (slash >= 0) {
            authority = rest.substring(0, slash);
            database = decode(url, rest.substring(slash + 1), "the database name");
            if (database.contains("/")) {
                throw bad(url, "the database name '" + database + "' contains '/'");
            }
        }
        String host;
        String portText = null;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw bad(url, "unterminated IPv6 address '" + authority + "'");
            }
            host = authority.substring(1, close);
            String after = authority.substring(close + 1);
            if (!after.isEmpty()) {
                if (!after.startsWith(":")) {
                    throw bad(url, "unexpected '" + after + "' after the IPv6 address");
                }
                portText = after.substring(1);
            }
        } else {
            int colon = authority.indexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            portText = colon < 0 ? null : authority.substring(colon + 1);
        }
        if (host.isEmpty()) {
            host = "localhost";
        }
        int port = DEFAULT_PORT;
        if (portText != null) {
            port = parseInt(url, "port", portText, 1, 65535);
        }
        Map<String, String> values = new LinkedHashMap<>();
        if (!query.isEmpty()) {
            for (String pair : query.split("&", -1)) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String key = decode(url, eq < 0 ? pair : pair.substring(0, eq), "a parameter name");
                String value = eq < 0 ? "" : decode(url, pair.substring(eq + 1), "the value of " + key);
                if (!SETTINGS.containsKey(key)) {
                    throw bad(url, "unknown parameter '" + key + "' (known: " + String.join(", ", SETTINGS.keySet())
                            + ")");
                }
                values.put(key, value);
            }
        }
        if (info != null) {
            for (String key : SETTINGS.keySet()) {
                String value = info.getProperty(key);
                if (value != null) {
                    values.put(key, value);
                }
            }
        }
        int loginTimeout = java.sql.DriverManager.getLoginTimeout();
        int connectTimeout = values.containsKey("connectTimeout")
                ? parseInt(url, "connectTimeout", values.get("connectTimeout"), 0, Integer.MAX_VALUE / 1000)
                : loginTimeout > 0 ? loginTimeout : DEFAULT_CONNECT_TIMEOUT_SECONDS;
        return new ConnectionConfig(host, port, database, values.getOrDefault("user", ""),
                values.getOrDefault("password", ""), values.getOrDefault("token", ""),
                parseBoolean(url, "ssl", values.get("ssl"), false), emptyToNull(values.get("sslTrustStore")),
                values.get("sslTrustStorePassword"), parseBoolean(url, "sslVerify", values.get("sslVerify"), true),
                values.containsKey("fetchSize")
                        ? parseInt(url, "fetchSize", values.get("fetchSize"), 0, Integer.MAX_VALUE) : 0,
                connectTimeout,
                values.containsKey("socketTimeout")
                        ? parseInt(url, "socketTimeout", values.get("socketTimeout"), 0, Integer.MAX_VALUE / 1000)
                        : 0,
                url);
    }

    static DriverPropertyInfo[] propertyInfo(String url, Properties info) {
        Properties merged = new Properties();
        try {
            ConnectionConfig c = parse(url, info);
            merged.setProperty("user", c.user());
            merged.setProperty("ssl", Boolean.toString(c.ssl()));
            merged.setProperty("sslVerify", Boolean.toString(c.sslVerify()));
            merged.setProperty("fetchSize", Integer.toString(c.fetchSize()));
            merged.setProperty("connectTimeout", Integer.toString(c.connectTimeoutSeconds()));
            merged.setProperty("socketTimeout", Integer.toString(c.socketTimeoutSeconds()));
        } catch (SQLException e) {
            // an unparsable URL still gets the list of settings
        }
        List<DriverPropertyInfo> out = new ArrayList<>();
        for (Map.Entry<String, String> e : SETTINGS.entrySet()) {
            String given = info == null ? null : info.getProperty(e.getKey());
            DriverPropertyInfo p = new DriverPropertyInfo(e.getKey(), given != null ? given
                    : merged.getProperty(e.getKey()));
            p.description = e.getValue();
            p.required = false;
            if (e.getKey().equals("ssl") || e.getKey().equals("sslVerify")) {
                p.choices = new String[] {"true", "false"};
            }
            out.add(p);
        }
        return out.toArray(DriverPropertyInfo[]::new);
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static int parseInt(String url, String name, String text, int min, int max) throws SQLException {
        try {
            int v = Integer.parseInt(text.strip());
            if (v < min || v > max) {
                throw bad(url, name + " " + v + " is out of range " + min + ".." + max);
            }
            return v;
        } catch (NumberFormatException e) {
            throw bad(url, name + " '" + text + "' is not a number");
        }
    }

    private static boolean parseBoolean(String url, String name, String text, boolean dflt) throws SQLException {
        if (text == null || text.isEmpty()) {
            return dflt;
        }
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw bad(url, name + " must be true or false, got '" + text + "'");
        };
    }

    /** Percent-decoding (UTF-8); '+' stays '+', so a password may hold it. */
    private static String decode(String url, String s, String what) throws SQLException {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length() || Character.digit(s.charAt(i + 1), 16) < 0
                        || Character.digit(s.charAt(i + 2), 16) < 0) {
                    throw bad(url, "bad percent escape in " + what + " (%XX expected)");
                }
                out.write(Character.digit(s.charAt(i + 1), 16) * 16 + Character.digit(s.charAt(i + 2), 16));
                i += 2;
            } else {
                int end = s.indexOf('%', i);
                byte[] b = s.substring(i, end < 0 ? s.length() : end).getBytes(StandardCharsets.UTF_8);
                out.write(b, 0, b.length);
                i = (end < 0 ? s.length() : end) - 1;
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static SQLException bad(String url, String problem) {
        return new SQLException("invalid LocusDB URL '" + redact(url) + "': " + problem, Errors.CANNOT_CONNECT);
    }

    /** The URL without a password or token value, for messages. */
    static String redact(String url) {
        return url == null ? null : url.replaceAll("(?i)((?:password|token|sslTrustStorePassword)=)[^&]*", "$1***");
    }

    @Override
    public String toString() {
        return "ConnectionConfig[" + host + ":" + port + "/" + database + ", user=" + user + ", ssl=" + ssl + "]";
    }
}
