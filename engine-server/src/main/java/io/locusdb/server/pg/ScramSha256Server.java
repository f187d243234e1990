package io.locusdb.server.pg;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The server side of SCRAM-SHA-256 (RFC 5802 and RFC 7677, as PostgreSQL uses it: no channel binding, the user name
 * taken from the startup message). It needs only the PBKDF2-HMAC-SHA256 salted password, its salt and iteration
 * count, which is what LocusDB's password hashes store: the password itself never reaches the server. An unknown
 * user is given a made-up salt and always fails at the proof, so the exchange does not tell which users exist.
 */
public final class ScramSha256Server {
    public static final String MECHANISM = "SCRAM-SHA-256";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** What the exchange needs of a user's password; {@code saltedPassword} is null for a decoy. */
    public record Credentials(byte[] salt, int iterations, byte[] saltedPassword) {
    }

    private final Credentials credentials;
    private String clientFirstBare;
    private String serverFirst;
    private String nonce;
    private String gs2Header;

    public ScramSha256Server(Credentials credentials) {
        this.credentials = credentials;
    }

    /** The SASLInitialResponse body: mechanism, then the client-first-message; returns the server-first-message. */
    public byte[] initialResponse(byte[] body) {
        int zero = indexOf(body, 0);
        if (zero < 0 || body.length < zero + 5) {
            throw malformed("SASLInitialResponse");
        }
        String mechanism = new String(body, 0, zero, StandardCharsets.UTF_8);
        if (!mechanism.equals(MECHANISM)) {
            throw new PgAuthenticationException("28000", "SASL authentication mechanism " + mechanism
                    + " is not supported; use " + MECHANISM);
        }
        int length = ((body[zero + 1] & 0xFF) << 24) | ((body[zero + 2] & 0xFF) << 16) | ((body[zero + 3] & 0xFF) << 8)
                | (body[zero + 4] & 0xFF);
        if (length != body.length - zero - 5) {
            throw malformed("SASLInitialResponse");
        }
        String clientFirst = new String(body, zero + 5, length, StandardCharsets.UTF_8);
        // gs2-header: "n,," (no channel binding) or "y,," (client could, server does not); "p=" needs -PLUS.
        if (clientFirst.startsWith("p=")) {
            throw new PgAuthenticationException("28000", "channel binding is not supported: use " + MECHANISM);
        }
        if (!(clientFirst.startsWith("n,") || clientFirst.startsWith("y,"))) {
            throw malformed("client-first-message");
        }
        int secondComma = clientFirst.indexOf(',', 2);
        if (secondComma < 0) {
            throw malformed("client-first-message");
        }
        gs2Header = clientFirst.substring(0, secondComma + 1);
        clientFirstBare = clientFirst.substring(secondComma + 1);
        String clientNonce = attribute(clientFirstBare, 'r');
        if (clientNonce == null || clientNonce.isEmpty()) {
            throw malformed("client-first-message");
        }
        byte[] serverNonce = new byte[18];
        RANDOM.nextBytes(serverNonce);
        nonce = clientNonce + Base64.getEncoder().encodeToString(serverNonce);
        serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(credentials.salt())
                + ",i=" + credentials.iterations();
        return serverFirst.getBytes(StandardCharsets.UTF_8);
    }

    /** The SASLResponse body (client-final-message); returns the server-final-message, or throws 28P01. */
    public byte[] finalResponse(byte[] body, String user) {
        if (serverFirst == null) {
            throw malformed("SASL exchange");
        }
        String clientFinal = new String(body, StandardCharsets.UTF_8);
        int proofAt = clientFinal.lastIndexOf(",p=");
        if (proofAt < 0) {
            throw malformed("client-final-message");
        }
        String withoutProof = clientFinal.substring(0, proofAt);
        String binding = attribute(withoutProof, 'c');
        String finalNonce = attribute(withoutProof, 'r');
        byte[] proof;
        try {
            proof = Base64.getDecoder().decode(clientFinal.substring(proofAt + 3));
        } catch (IllegalArgumentException e) {
            throw malformed("client proof");
        }
        String expectedBinding = Base64.getEncoder().encodeToString(gs2Header.getBytes(StandardCharsets.UTF_8));
        if (!expectedBinding.equals(binding) || !nonce.equals(finalNonce) || proof.length != 32) {
            throw malformed("client-final-message");
        }
        byte[] authMessage = (clientFirstBare + "," + serverFirst + "," + withoutProof)
                .getBytes(StandardCharsets.UTF_8);
        byte[] salted = credentials.saltedPassword() != null ? credentials.saltedPassword() : new byte[32];
        byte[] storedKey = sha256(hmac(salted, "Client Key".getBytes(StandardCharsets.US_ASCII)));
        byte[] clientSignature = hmac(storedKey, authMessage);
        byte[] clientKey = new byte[32];
        for (int i = 0; i < 32; i++) {
            clientKey[i] = (byte) (proof[i] ^ clientSignature[i]);
        }
        boolean ok = MessageDigest.isEqual(sha256(clientKey), storedKey) && credentials.saltedPassword() != null;
        if (!ok) {
            throw new PgAuthenticationException("28P01", "password authentication failed for user \"" + user + "\"");
        }
        byte[] serverKey = hmac(salted, "Server Key".getBytes(StandardCharsets.US_ASCII));
        String serverFinal = "v=" + Base64.getEncoder().encodeToString(hmac(serverKey, authMessage));
        return serverFinal.getBytes(StandardCharsets.UTF_8);
    }

    /** The value of attribute {@code name} ("name=value") in a comma-separated SCRAM message, or null. */
    static String attribute(String message, char name) {
        for (String part : message.split(",", -1)) {
            if (part.length() >= 2 && part.charAt(0) == name && part.charAt(1) == '=') {
                return part.substring(2);
            }
        }
        return null;
    }

    /** A decoy's salt: the same for the same user on the same server, so that repeated tries look consistent. */
    public static byte[] decoySalt(byte[] serverSecret, String user) {
        byte[] full = hmac(serverSecret, user.getBytes(StandardCharsets.UTF_8));
        byte[] salt = new byte[16];
        System.arraycopy(full, 0, salt, 0, 16);
        return salt;
    }

    static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    private static int indexOf(byte[] bytes, int value) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == value) {
                return i;
            }
        }
        return -1;
    }

    private static PgAuthenticationException malformed(String what) {
        return new PgAuthenticationException("08P01", "malformed SCRAM message: " + what);
    }
}
