package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.protocol.Message;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Passwords (salted PBKDF2), tokens (SHA-256), trust mode, and TLS with a self-signed certificate. */
class ServerSecurityTest {
    static final String TOKEN = "s3cr3t-token-0123456789";

    @Test
    void passwordHashesAreSaltedAndCheckedExactly() {
        PasswordHash hash = PasswordHash.create("correct horse".toCharArray(), 1000);
        PasswordHash again = PasswordHash.create("correct horse".toCharArray(), 1000);
        assertThat(hash.format()).startsWith("pbkdf2-sha256:1000:").isNotEqualTo(again.format());
        PasswordHash parsed = PasswordHash.parse(hash.format());
        assertThat(parsed.matches("correct horse".toCharArray())).isTrue();
        assertThat(parsed.matches("correct horsE".toCharArray())).isFalse();
        assertThat(parsed.matches(new char[0])).isFalse();
        assertThatThrownBy(() -> PasswordHash.parse("md5:abc")).isInstanceOf(IllegalArgumentException.class);
        assertThat(Authenticator.tokenHash(TOKEN)).startsWith("sha256:").hasSize(7 + 64);
    }

    @Test
    void usersLogInWithTheirPasswordAndTokensWithTheirSecret() throws Exception {
        Map<String, String> settings = Map.of(
                "user.alice", PasswordHash.create("wonderland".toCharArray(), 1000).format(),
                "token.ci", Authenticator.tokenHash(TOKEN));
        try (LocusServer server = TestServers.start(settings)) {
            try (RawClient c = RawClient.connect(server.port())) {
                c.startup("alice", "wonderland", "");
                c.send(new Message.Ping());
                c.expect(Message.Pong.class);
            }
            try (RawClient c = RawClient.connect(server.port())) {
                c.startup("", "", TOKEN);
            }
            refused(server, "alice", "Wonderland", "", "28P01", "password authentication failed for user \"alice\"");
            refused(server, "mallory", "wonderland", "", "28P01", "password authentication failed for user \"mallory\"");
            refused(server, "", "", "guess", "28P01", "token authentication failed");
            refused(server, "", "", "", "28000", "authentication required");
            assertThat(server.metrics().sessions()).isLessThanOrEqualTo(2);
        }
    }

    private static void refused(LocusServer server, String user, String password, String token, String state,
                                String message) throws IOException {
        try (RawClient c = RawClient.connect(server.port())) {
            c.preamble().send(new Message.Startup(user, password, token, "", "test"));
            assertThat(c.expectError(state).message()).startsWith(message);
            assertThat(c.closedByServer(Duration.ofSeconds(5))).isTrue();
        }
    }

    @Test
    void withTlsOnTheHandshakeAndQueriesRunInsideTlsAndPlainClientsAreRefused(@TempDir Path dir) throws Exception {
        Path keystore = selfSignedKeystore(dir);
        Map<String, String> settings = Map.of("tls.keystore", keystore.toString(), "tls.keystore-password", "changeit");
        try (LocusServer server = TestServers.start(settings, TestServers.ITEMS)) {
            SSLContext trusting = trusting(keystore);
            try (RawClient c = RawClient.connectTls(server.port(), trusting)) {
                c.startup();
                assertThat(c.query("SELECT sum(n) FROM items").single()).isEqualTo(2147483647L - 10);
            }
            try (RawClient plain = RawClient.connect(server.port())) {
                plain.preamble().send(new Message.Startup("x", "", "", "", "test"));
                assertThat(plain.closedByServer(Duration.ofSeconds(10))).isTrue();
            }
        }
        try (LocusServer plainServer = TestServers.start(Map.of(), TestServers.ITEMS)) {
            try (RawClient c = RawClient.connect(plainServer.port())) {
                c.startup();
                assertThat(c.query("SELECT count(*) FROM items").single()).isEqualTo(5L);
            }
        }
    }

    static Path selfSignedKeystore(Path dir) throws Exception {
        Path keystore = dir.resolve("server.p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(keytool, "-genkeypair", "-keyalg", "EC", "-groupname", "secp256r1",
                "-alias", "locus", "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", keystore.toString(),
                "-storepass", "changeit", "-keypass", "changeit").redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        return keystore;
    }

    static SSLContext trusting(Path keystore) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, "changeit".toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
