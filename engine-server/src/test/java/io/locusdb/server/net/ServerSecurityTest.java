package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.protocol.Message;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
    void aLoginWhoseConnectionClosedWhileWaitingForAPasswordCheckIsNeverHashed() throws Exception {
        Map<String, String> settings = Map.of("user.alice", PasswordHash.create("wonderland".toCharArray(), 1000)
                .format());
        try (LocusServer server = TestServers.start(settings)) {
            PasswordChecks checks = server.context().passwordChecks();
            checks.semaphore().acquire(checks.permits()); // every check slot busy
            try {
                for (int i = 0; i < 3; i++) {
                    try (RawClient c = RawClient.connect(server.port())) {
                        c.preamble().send(new Message.Startup("alice", "wonderland", "", "", "test"));
                    }
                }
                Thread.sleep(300); // the server sees the three connections close
            } finally {
                checks.semaphore().release(checks.permits());
            }
            Thread.sleep(300);
            assertThat(checks.hashedCount()).isZero();
            try (RawClient c = RawClient.connect(server.port())) {
                c.startup("alice", "wonderland", "");
            }
            assertThat(checks.hashedCount()).isEqualTo(1);
        }
    }

    @Test
    void loginsBeyondThePendingPasswordCheckLimitAreRefusedWith53300() throws Exception {
        Map<String, String> settings = Map.of("user.alice", PasswordHash.create("wonderland".toCharArray(), 1000)
                .format(), "max-pending-startups", "1000");
        try (LocusServer server = TestServers.start(settings)) {
            PasswordChecks checks = server.context().passwordChecks();
            List<RawClient> waiting = new ArrayList<>();
            checks.semaphore().acquire(checks.permits());
            try {
                for (int i = 0; i < checks.maxPending(); i++) {
                    RawClient c = RawClient.connect(server.port());
                    waiting.add(c);
                    c.preamble().send(new Message.Startup("alice", "wonderland", "", "", "test"));
                }
                awaitPending(checks, checks.maxPending());
                try (RawClient one = RawClient.connect(server.port())) {
                    one.preamble().send(new Message.Startup("alice", "wonderland", "", "", "test"));
                    assertThat(one.expectError("53300").message()).isEqualTo("too many pending authentications: try"
                            + " again later");
                    assertThat(one.closedByServer(Duration.ofSeconds(5))).isTrue();
                }
            } finally {
                checks.semaphore().release(checks.permits());
            }
            // The waiting logins go through once checks can run again.
            for (RawClient c : waiting) {
                c.expect(Message.Ready.class);
                c.close();
            }
        }
    }

    private static void awaitPending(PasswordChecks checks, int expected) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (pendingOf(checks) < expected && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(pendingOf(checks)).isEqualTo(expected);
    }

    private static int pendingOf(PasswordChecks checks) {
        return checks.pending();
    }

    @Test
    void beyondMaxPendingStartupsNewConnectionsWaitUntilOneLogsInOrCloses() throws Exception {
        try (LocusServer server = TestServers.start(Map.of("max-pending-startups", "2"))) {
            RawClient a = RawClient.connect(server.port());
            try (RawClient b = RawClient.connect(server.port())) {
                a.preamble();
                b.preamble();
                awaitStartups(server, 2);
                awaitAccepting(server, false);
                RawClient c = RawClient.connect(server.port());
                // c's TCP connection is in the listen backlog: the server has not accepted it, so no READY yet.
                c.preamble().send(new Message.Startup("c", "", "", "", "test"));
                c.socket().setSoTimeout(500);
                assertThatThrownBy(c::read).isInstanceOf(SocketTimeoutException.class);
                c.socket().setSoTimeout(15_000);
                a.close();
                c.expect(Message.Ready.class);
                b.send(new Message.Startup("b", "", "", "", "test"));
                b.expect(Message.Ready.class);
                awaitStartups(server, 0);
                c.close();
            }
        }
    }

    private static void awaitAccepting(LocusServer server, boolean expected) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (server.context().startups().accepting() != expected && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(server.context().startups().accepting()).isEqualTo(expected);
    }

    private static void awaitStartups(LocusServer server, int expected) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (server.context().startups().pending() != expected && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(server.context().startups().pending()).isEqualTo(expected);
    }

    @Test
    void aServerInTrustModeRefusesToStartOnANonLoopbackAddress() {
        LocusDB db = LocusDB.open(LocusConfig.defaults());
        try {
            ServerConfig open = ServerConfig.defaults().with("port", "0")
                    .with("pg.port", "-1").with("metrics.port", "-1")
                    .with("bind", "0.0.0.0");
            assertThatThrownBy(() -> LocusServer.start(db, open)).isInstanceOf(UnsafeExposureException.class)
                    .hasMessageContaining("bind = 0.0.0.0").hasMessageContaining("trust mode")
                    .hasMessageContaining("allow-trust-on-network=true");
        } finally {
            db.close();
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
