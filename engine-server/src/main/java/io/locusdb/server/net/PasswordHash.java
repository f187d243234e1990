package io.locusdb.server.net;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A salted PBKDF2-HMAC-SHA256 password hash, written {@code pbkdf2-sha256:ITERATIONS:SALT_B64:HASH_B64}. The
 * iteration count travels with the hash so that it can be raised for new passwords without breaking old ones.
 */
public final class PasswordHash {
    public static final String SCHEME = "pbkdf2-sha256";
    /** OWASP's current recommendation for PBKDF2-HMAC-SHA256. */
    public static final int DEFAULT_ITERATIONS = 600_000;
    static final int MAX_ITERATIONS = 10_000_000;
    private static final int SALT_BYTES = 16;
    private static final int HASH_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final int iterations;
    private final byte[] salt;
    private final byte[] hash;

    private PasswordHash(int iterations, byte[] salt, byte[] hash) {
        this.iterations = iterations;
        this.salt = salt;
        this.hash = hash;
    }

    public static PasswordHash create(char[] password, int iterations) {
        if (iterations < 1 || iterations > MAX_ITERATIONS) {
            throw new IllegalArgumentException("iterations must be 1.." + MAX_ITERATIONS + ", got " + iterations);
        }
        if (password.length == 0) {
            throw new IllegalArgumentException("the password is empty");
        }
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        return new PasswordHash(iterations, salt, derive(password, salt, iterations, HASH_BYTES));
    }

    public static PasswordHash parse(String text) {
        String[] parts = text.strip().split(":", -1);
        if (parts.length != 4 || !parts[0].equals(SCHEME)) {
            throw new IllegalArgumentException("a password hash must read " + SCHEME
                    + ":ITERATIONS:SALT_B64:HASH_B64");
        }
        int iterations;
        try {
            iterations = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("iterations '" + parts[1] + "' is not a number");
        }
        if (iterations < 1 || iterations > MAX_ITERATIONS) {
            throw new IllegalArgumentException("iterations must be 1.." + MAX_ITERATIONS + ", got " + iterations);
        }
        try {
            byte[] salt = Base64.getDecoder().decode(parts[2]);
            byte[] hash = Base64.getDecoder().decode(parts[3]);
            if (salt.length < 8 || hash.length < 16) {
                throw new IllegalArgumentException("salt or hash too short");
            }
            return new PasswordHash(iterations, salt, hash);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad salt or hash: " + e.getMessage());
        }
    }

    /** Constant-time comparison of the derived key with the stored one. */
    public boolean matches(char[] password) {
        if (password.length == 0) {
            // The JDK refuses empty PBKDF2 passwords; still spend the time so that timing tells nothing.
            derive(new char[] {0}, salt, iterations, hash.length);
            return false;
        }
        return MessageDigest.isEqual(derive(password, salt, iterations, hash.length), hash);
    }

    public int iterations() {
        return iterations;
    }

    byte[] salt() {
        return salt.clone();
    }

    /** The derived key: for a 32-byte hash, exactly SCRAM-SHA-256's SaltedPassword. */
    byte[] derivedKey() {
        return hash.clone();
    }

    public String format() {
        return SCHEME + ":" + iterations + ":" + Base64.getEncoder().encodeToString(salt) + ":"
                + Base64.getEncoder().encodeToString(hash);
    }

    @Override
    public String toString() {
        return SCHEME + ":" + iterations + ":…";
    }

    private static byte[] derive(char[] password, byte[] salt, int iterations, int bytes) {
        PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, bytes * 8);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is not available", e);
        } finally {
            spec.clearPassword();
        }
    }

    /** For tests and the passwd command: wipes a password copy. */
    static void wipe(char[] password) {
        Arrays.fill(password, '\0');
    }
}
