package io.locusdb.server.net;

import io.locusdb.core.placer.PlacerSettings;
import io.locusdb.core.storage.placement.MoveStrategy;
import io.locusdb.protocol.Protocol;
import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Everything a server is started with: where it listens, its limits (defaults from docs/protocol.md), who may log in,
 * TLS and the metrics endpoint. Loaded from a properties file whose keys are listed in {@link #KEYS}; users are
 * {@code user.NAME = pbkdf2-sha256:...}, tokens {@code token.NAME = sha256:HEX}. An unknown key is an error, so a
 * typo never silently leaves a default in place.
 */
public record ServerConfig(String bindAddress, int port, int maxFrameBytes, int maxStatementsPerSession,
                           int maxSessions, Duration idleTimeout, Duration startupTimeout, long queryMemoryBudgetBytes,
                           Duration shutdownGrace, String metricsBindAddress, int metricsPort, int ioThreads,
                           Map<String, String> users, Map<String, String> tokens, Tls tls, int maxPendingStartups,
                           boolean allowTrustOnNetwork, PlacerSettings placer, int pgPort, PgAuthMethod pgAuth) {

    public static final int DEFAULT_PORT = 5499;
    public static final int DEFAULT_METRICS_PORT = 9499;
    /** PostgreSQL's 5432 plus one, so that LocusDB runs beside a PostgreSQL server. */
    public static final int DEFAULT_PG_PORT = 5433;

    /** How PostgreSQL clients prove a configured user's password. */
    public enum PgAuthMethod {
        /** SCRAM-SHA-256: the password never crosses the wire (PostgreSQL's default since version 14). */
        SCRAM_SHA_256("scram-sha-256"),
        /** The password in clear text, for old clients; use it only over TLS. */
        PASSWORD("password");

        private final String label;

        PgAuthMethod(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        static PgAuthMethod parse(String key, String text) {
            for (PgAuthMethod m : values()) {
                if (m.label.equalsIgnoreCase(text.strip())) {
                    return m;
                }
            }
            throw new IllegalArgumentException(key + ": '" + text + "' is not scram-sha-256 or password");
        }
    }
    /** Frames before STARTUP completes are tiny; an unauthenticated peer must not make the server buffer 16 MiB. */
    public static final int MAX_STARTUP_FRAME_BYTES = 64 * 1024;

    public static final Map<String, String> KEYS = keys();

    /** TLS from a PKCS#12 keystore, or from a PEM certificate chain and PKCS#8 private key. */
    public record Tls(Path keystore, String keystorePassword, Path certificate, Path privateKey, String keyPassword) {
        public Tls {
            if ((keystore == null) == (certificate == null)) {
                throw new IllegalArgumentException("TLS needs either tls.keystore or tls.cert + tls.key");
            }
            if (certificate != null && privateKey == null) {
                throw new IllegalArgumentException("tls.cert needs tls.key");
            }
        }

        /** Without the passwords. */
        @Override
        public String toString() {
            return keystore != null ? "Tls[keystore=" + keystore + "]"
                    : "Tls[cert=" + certificate + ", key=" + privateKey + "]";
        }
    }

    public ServerConfig {
        users = Map.copyOf(users);
        tokens = Map.copyOf(tokens);
        Objects.requireNonNull(placer, "placer");
        check(port >= 0 && port <= 65535, "port must be 0..65535, got " + port);
        check(metricsPort >= -1 && metricsPort <= 65535, "metrics.port must be -1 (off) or 0..65535, got " + metricsPort);
        check(pgPort >= -1 && pgPort <= 65535, "pg.port must be -1 (off) or 0..65535, got " + pgPort);
        Objects.requireNonNull(pgAuth, "pgAuth");
        check(maxFrameBytes >= 1024, "max-frame-bytes must be at least 1024, got " + maxFrameBytes);
        check(maxStatementsPerSession >= 1, "max-statements must be at least 1");
        check(maxSessions >= 1, "max-sessions must be at least 1");
        check(positive(idleTimeout), "idle-timeout must be positive");
        check(positive(startupTimeout), "startup-timeout must be positive");
        check(shutdownGrace != null && !shutdownGrace.isNegative(), "shutdown-grace must not be negative");
        check(queryMemoryBudgetBytes > 0, "query-memory-budget must be positive");
        check(ioThreads >= 0, "io-threads must not be negative");
        check(maxPendingStartups >= 1, "max-pending-startups must be at least 1");
        for (Map.Entry<String, String> user : users.entrySet()) {
            try {
                PasswordHash.parse(user.getValue());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("user." + user.getKey() + ": " + e.getMessage());
            }
        }
        for (Map.Entry<String, String> token : tokens.entrySet()) {
            if (!Authenticator.isTokenHash(token.getValue())) {
                throw new IllegalArgumentException("token." + token.getKey() + " must be sha256:<64 hex digits>");
            }
        }
    }

    public static ServerConfig defaults() {
        return new ServerConfig("127.0.0.1", DEFAULT_PORT, Protocol.DEFAULT_MAX_FRAME_BYTES, 1024, 512,
                Duration.ofMinutes(30), Duration.ofSeconds(10), 1L << 30, Duration.ofSeconds(30), "127.0.0.1",
                DEFAULT_METRICS_PORT, 0, Map.of(), Map.of(), null, 64, false, PlacerSettings.DEFAULT, DEFAULT_PG_PORT,
                PgAuthMethod.SCRAM_SHA_256);
    }

    public static ServerConfig load(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        }
        Map<String, String> settings = new TreeMap<>();
        properties.stringPropertyNames().forEach(k -> settings.put(k, properties.getProperty(k).strip()));
        try {
            return defaults().with(settings);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /** This configuration with one setting changed, spelled as in the properties file. */
    public ServerConfig with(String key, String value) {
        return with(Map.of(key, value));
    }

    public ServerConfig with(Map<String, String> settings) {
        Builder b = new Builder(this);
        settings.forEach(b::set);
        return b.build();
    }

    public ServerConfig withPort(int newPort) {
        return with("port", Integer.toString(newPort));
    }

    public boolean trustMode() {
        return users.isEmpty() && tokens.isEmpty();
    }

    /**
     * Refuses trust mode (no users, no tokens) on an address other than loopback, unless
     * {@code allow-trust-on-network = true}: an open database on the network is a mistake far more often than a plan.
     */
    public void requireSafeExposure() {
        if (trustMode() && !allowTrustOnNetwork && !isLoopback(bindAddress)) {
            throw new UnsafeExposureException("bind = " + bindAddress + " without users or tokens would accept every"
                    + " client on the network (trust mode): configure user.NAME or token.NAME (./locus passwd), bind"
                    + " 127.0.0.1, or set allow-trust-on-network=true");
        }
    }

    /** Whether every address {@code host} names is a loopback one (an unknown name is not). */
    static boolean isLoopback(String host) {
        try {
            InetAddress[] all = InetAddress.getAllByName(host);
            return all.length > 0 && Arrays.stream(all).allMatch(InetAddress::isLoopbackAddress);
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** Event loop threads: small by default, as statements run on virtual threads, not on the loops. */
    public int effectiveIoThreads() {
        return ioThreads > 0 ? ioThreads : Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    }

    private static Map<String, String> keys() {
        Map<String, String> k = new LinkedHashMap<>();
        k.put("bind", "address to listen on (default 127.0.0.1)");
        k.put("port", "port (default 5499; 0 = any free port)");
        k.put("max-frame-bytes", "largest frame accepted and sent (default 16m)");
        k.put("max-statements", "prepared statements per session (default 1024)");
        k.put("max-sessions", "sessions per server (default 512)");
        k.put("idle-timeout", "no frame while no statement runs (default 30m)");
        k.put("startup-timeout", "no STARTUP after connect (default 10s)");
        k.put("query-memory-budget", "memory a statement's operators may hold (default 1g)");
        k.put("shutdown-grace", "how long running statements may finish on shutdown (default 30s)");
        k.put("io-threads", "Netty event loop threads (default min(4, CPUs))");
        k.put("max-pending-startups", "connections not yet logged in; beyond it no more are accepted (default 64)");
        k.put("allow-trust-on-network", "true: allow trust mode (no users, no tokens) on a non-loopback address");
        k.put("pg.port", "port of the PostgreSQL protocol listener, on the same address (default 5433; 0 = any,"
                + " -1 = off)");
        k.put("pg.auth", "how PostgreSQL clients prove a user's password: scram-sha-256 (default) or password");
        k.put("metrics.bind", "address of the Prometheus endpoint (default 127.0.0.1)");
        k.put("metrics.port", "port of the Prometheus endpoint (default 9499; 0 = any, -1 = off)");
        k.put("placer", "on: the placer moves, partitions and merges table parts as the load shifts (default on)");
        k.put("placer.period", "c_p, how often the placer decides (default 1s)");
        k.put("placer.sample", "how often each node's utilization is sampled (default 100ms)");
        k.put("placer.eligibility", "c_e, how stable a part's load must be to act on it (default 0.30)");
        k.put("placer.imbalance", "c_i, smallest imbalance acted on, fraction of a node's threads (default 0.40)");
        k.put("placer.saturation", "c_s, utilization above which a node gives load away (default 0.70)");
        k.put("placer.max-memory-throughput", "bytes/s one node sustains, e.g. 40g (default: no limit)");
        k.put("placer.move", "how moves carry a part to its node: copy (default) or migrate (move_pages in place;"
                + " a copy where page moves are not permitted)");
        k.put("tls.keystore", "PKCS#12 keystore with the server's key and certificate");
        k.put("tls.keystore-password", "its password");
        k.put("tls.cert", "PEM certificate chain (instead of a keystore)");
        k.put("tls.key", "PEM PKCS#8 private key");
        k.put("tls.key-password", "password of an encrypted PEM key");
        k.put("user.NAME", "pbkdf2-sha256:ITERATIONS:SALT_B64:HASH_B64 (./locus passwd NAME)");
        k.put("token.NAME", "sha256:HEX of a token (./locus passwd --token NAME)");
        return Map.copyOf(k);
    }

    private static boolean positive(Duration d) {
        return d != null && !d.isNegative() && !d.isZero();
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)?");
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmg]?)(i?b)?");

    /** {@code 500ms}, {@code 30s}, {@code 30m}, {@code 2h}, {@code 1d}; a bare number is milliseconds. */
    static Duration parseDuration(String key, String text) {
        Matcher m = DURATION.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(key + ": '" + text + "' is not a duration (e.g. 500ms, 30s, 30m, 2h)");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    /** {@code 65536}, {@code 64k}, {@code 16m}, {@code 1g} (also {@code 16MiB}, {@code 16MB}: binary units). */
    static long parseSize(String key, String text) {
        Matcher m = SIZE.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(key + ": '" + text + "' is not a size (e.g. 65536, 64k, 16m, 1g)");
        }
        long n = Long.parseLong(m.group(1));
        int shift = switch (m.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            default -> 0;
        };
        if (n > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException(key + ": '" + text + "' is too large");
        }
        return n << shift;
    }

    static int parseInt(String key, String text) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": '" + text + "' is not a whole number");
        }
    }

    static boolean parseBoolean(String key, String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + ": '" + text + "' is not true or false");
        };
    }

    static boolean parseOnOff(String key, String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "on", "true" -> true;
            case "off", "false" -> false;
            default -> throw new IllegalArgumentException(key + ": '" + text + "' is not on or off");
        };
    }

    static MoveStrategy parseMove(String key, String text) {
        try {
            return MoveStrategy.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
        }
    }

    /** {@code 0.3} or {@code 30%}. */
    static double parseFraction(String key, String text) {
        String t = text.strip();
        try {
            double value = t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1).strip()) / 100
                    : Double.parseDouble(t);
            if (!(value >= 0 && value <= 1)) {
                throw new IllegalArgumentException(key + ": " + text + " is not between 0 and 1 (or 0% and 100%)");
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": '" + text + "' is not a fraction (e.g. 0.3 or 30%)");
        }
    }

    private static int toInt(String key, long value) {
        if (value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(key + ": " + value + " is too large");
        }
        return (int) value;
    }

    private static final class Builder {
        String bind;
        int port;
        int maxFrame;
        int maxStatements;
        int maxSessions;
        Duration idle;
        Duration startup;
        long budget;
        Duration grace;
        String metricsBind;
        int metricsPort;
        int ioThreads;
        int maxPendingStartups;
        boolean allowTrustOnNetwork;
        final Map<String, String> users;
        final Map<String, String> tokens;
        Path keystore;
        String keystorePassword;
        Path cert;
        Path key;
        String keyPassword;
        PlacerSettings placer;
        int pgPort;
        PgAuthMethod pgAuth;

        Builder(ServerConfig c) {
            pgPort = c.pgPort;
            pgAuth = c.pgAuth;
            placer = c.placer;
            bind = c.bindAddress;
            port = c.port;
            maxFrame = c.maxFrameBytes;
            maxStatements = c.maxStatementsPerSession;
            maxSessions = c.maxSessions;
            idle = c.idleTimeout;
            startup = c.startupTimeout;
            budget = c.queryMemoryBudgetBytes;
            grace = c.shutdownGrace;
            metricsBind = c.metricsBindAddress;
            metricsPort = c.metricsPort;
            ioThreads = c.ioThreads;
            maxPendingStartups = c.maxPendingStartups;
            allowTrustOnNetwork = c.allowTrustOnNetwork;
            users = new TreeMap<>(c.users);
            tokens = new TreeMap<>(c.tokens);
            if (c.tls != null) {
                keystore = c.tls.keystore();
                keystorePassword = c.tls.keystorePassword();
                cert = c.tls.certificate();
                key = c.tls.privateKey();
                keyPassword = c.tls.keyPassword();
            }
        }

        void set(String k, String v) {
            String value = v.strip();
            if (k.startsWith("user.") && k.length() > 5) {
                users.put(k.substring(5), value);
                return;
            }
            if (k.startsWith("token.") && k.length() > 6) {
                tokens.put(k.substring(6), value.toLowerCase(Locale.ROOT));
                return;
            }
            switch (k) {
                case "bind" -> bind = value;
                case "port" -> port = parseInt(k, value);
                case "max-frame-bytes" -> maxFrame = toInt(k, parseSize(k, value));
                case "max-statements" -> maxStatements = parseInt(k, value);
                case "max-sessions" -> maxSessions = parseInt(k, value);
                case "idle-timeout" -> idle = parseDuration(k, value);
                case "startup-timeout" -> startup = parseDuration(k, value);
                case "query-memory-budget" -> budget = parseSize(k, value);
                case "shutdown-grace" -> grace = parseDuration(k, value);
                case "io-threads" -> ioThreads = parseInt(k, value);
                case "max-pending-startups" -> maxPendingStartups = parseInt(k, value);
                case "allow-trust-on-network" -> allowTrustOnNetwork = parseBoolean(k, value);
                case "metrics.bind" -> metricsBind = value;
                case "metrics.port" -> metricsPort = parseInt(k, value);
                case "pg.port" -> pgPort = parseInt(k, value);
                case "pg.auth" -> pgAuth = PgAuthMethod.parse(k, value);
                case "placer" -> placer = placer.withEnabled(parseOnOff(k, value));
                case "placer.period" -> placer = placer.withPeriod(parseDuration(k, value).toMillis(),
                        Math.min(placer.sampleMillis(), parseDuration(k, value).toMillis()));
                case "placer.sample" -> placer = placer.withPeriod(placer.periodMillis(),
                        parseDuration(k, value).toMillis());
                case "placer.eligibility" -> placer = placer.withThresholds(parseFraction(k, value),
                        placer.imbalance(), placer.saturation());
                case "placer.imbalance" -> placer = placer.withThresholds(placer.eligibility(),
                        parseFraction(k, value), placer.saturation());
                case "placer.saturation" -> placer = placer.withThresholds(placer.eligibility(),
                        placer.imbalance(), parseFraction(k, value));
                case "placer.max-memory-throughput" -> placer = placer.withMaxMemoryPerNode(parseSize(k, value));
                case "placer.move" -> placer = placer.withMove(parseMove(k, value));
                case "tls.keystore" -> keystore = value.isEmpty() ? null : Path.of(value);
                case "tls.keystore-password" -> keystorePassword = value;
                case "tls.cert" -> cert = value.isEmpty() ? null : Path.of(value);
                case "tls.key" -> key = value.isEmpty() ? null : Path.of(value);
                case "tls.key-password" -> keyPassword = value;
                default -> throw new IllegalArgumentException("unknown setting '" + k + "' (known: "
                        + String.join(", ", new TreeMap<>(KEYS).keySet()) + ")");
            }
        }

        ServerConfig build() {
            Tls tls = keystore == null && cert == null ? null
                    : new Tls(keystore, keystorePassword, cert, key, keyPassword);
            return new ServerConfig(bind, port, maxFrame, maxStatements, maxSessions, idle, startup, budget, grace,
                    metricsBind, metricsPort, ioThreads, users, tokens, tls, maxPendingStartups, allowTrustOnNetwork,
                    placer, pgPort, pgAuth);
        }
    }
}
