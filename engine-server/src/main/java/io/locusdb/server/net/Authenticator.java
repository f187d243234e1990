package io.locusdb.server.net;

import io.locusdb.protocol.Message;
import io.locusdb.server.pg.ScramSha256Server;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Checks STARTUP credentials against the configured users (PBKDF2 hashes) and tokens (SHA-256 hashes). Unknown users
 * cost as much as wrong passwords and get the same message, so neither timing nor text tells which users exist.
 * Without any user or token configured the server trusts everyone (the operator is told at start).
 */
public final class Authenticator {
    public static final String TOKEN_PREFIX = "sha256:";

    /** The outcome: a user name for the session, or the SQLSTATE and message to refuse with. */
    public record Outcome(String user, String sqlState, String message) {
        public boolean accepted() {
            return sqlState == null;
        }

        static Outcome accept(String user) {
            return new Outcome(user, null, null);
        }

        static Outcome refuse(String sqlState, String message) {
            return new Outcome(null, sqlState, message);
        }
    }

    private final Map<String, PasswordHash> users = new LinkedHashMap<>();
    private final Map<String, byte[]> tokens = new LinkedHashMap<>();
    private final PasswordHash decoy;
    /** Keys the made-up SCRAM salts of unknown users, so that they stay the same while the server runs. */
    private final byte[] decoySecret = new byte[32];

    public Authenticator(Map<String, String> userHashes, Map<String, String> tokenHashes) {
        userHashes.forEach((name, hash) -> users.put(name, PasswordHash.parse(hash)));
        tokenHashes.forEach((name, hash) -> tokens.put(name,
                HexFormat.of().parseHex(hash.substring(TOKEN_PREFIX.length()))));
        int iterations = users.values().stream().mapToInt(PasswordHash::iterations).max().orElse(1);
        decoy = PasswordHash.create("decoy".toCharArray(), iterations);
        new SecureRandom().nextBytes(decoySecret);
    }

    /**
     * What a SCRAM-SHA-256 exchange needs for {@code user}: the stored PBKDF2-HMAC-SHA256 key is SCRAM's salted
     * password. An unknown user (or a hash of another length) gets a decoy that fails at the proof.
     */
    public ScramSha256Server.Credentials scramCredentials(String user) {
        PasswordHash hash = users.get(user);
        if (hash == null || hash.derivedKey().length != 32) {
            return new ScramSha256Server.Credentials(ScramSha256Server.decoySalt(decoySecret, user),
                    decoy.iterations(), null);
        }
        return new ScramSha256Server.Credentials(hash.salt(), hash.iterations(), hash.derivedKey());
    }

    /** Whether any user is configured (PostgreSQL clients log in as users; tokens are for the native protocol). */
    public boolean hasUsers() {
        return !users.isEmpty();
    }

    public boolean trustMode() {
        return users.isEmpty() && tokens.isEmpty();
    }

    /** Whether checking these credentials is expensive (PBKDF2) and so belongs off the event loop. */
    public boolean isSlow(Message.Startup startup) {
        return !trustMode() && startup.token().isEmpty() && !startup.user().isEmpty();
    }

    public Outcome authenticate(Message.Startup startup) {
        if (trustMode()) {
            return Outcome.accept(startup.user().isEmpty() ? "anonymous" : startup.user());
        }
        if (!startup.token().isEmpty()) {
            byte[] presented = sha256(startup.token());
            String found = null;
            // Every stored hash is compared, so the time does not depend on which one matched.
            for (Map.Entry<String, byte[]> token : tokens.entrySet()) {
                if (MessageDigest.isEqual(presented, token.getValue()) && found == null) {
                    found = token.getKey();
                }
            }
            return found != null ? Outcome.accept("token:" + found)
                    : Outcome.refuse("28P01", "token authentication failed");
        }
        if (startup.user().isEmpty()) {
            return Outcome.refuse("28000", "authentication required: give a user and password, or a token");
        }
        PasswordHash hash = users.get(startup.user());
        char[] password = startup.password().toCharArray();
        try {
            boolean ok = (hash != null ? hash : decoy).matches(password) && hash != null;
            return ok ? Outcome.accept(startup.user())
                    : Outcome.refuse("28P01", "password authentication failed for user \"" + startup.user() + "\"");
        } finally {
            PasswordHash.wipe(password);
        }
    }

    public static boolean isTokenHash(String text) {
        return text.startsWith(TOKEN_PREFIX) && text.length() == TOKEN_PREFIX.length() + 64
                && text.substring(TOKEN_PREFIX.length()).chars().allMatch(c -> Character.digit(c, 16) >= 0);
    }

    /** The configuration line value for a token. */
    public static String tokenHash(String token) {
        return TOKEN_PREFIX + HexFormat.of().formatHex(sha256(token));
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
