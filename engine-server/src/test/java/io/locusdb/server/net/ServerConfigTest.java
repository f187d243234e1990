package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import io.locusdb.core.placer.PlacerSettings;
import io.locusdb.core.storage.placement.MoveStrategy;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's settings: the documented defaults, the properties file, and clear errors for bad values. */
class ServerConfigTest {
    @Test
    void defaultsAreTheDocumentedOnes() {
        ServerConfig c = ServerConfig.defaults();
        assertThat(c.bindAddress()).isEqualTo("127.0.0.1");
        assertThat(c.port()).isEqualTo(5499);
        assertThat(c.maxFrameBytes()).isEqualTo(16 << 20);
        assertThat(c.maxStatementsPerSession()).isEqualTo(1024);
        assertThat(c.maxSessions()).isEqualTo(512);
        assertThat(c.idleTimeout()).isEqualTo(Duration.ofMinutes(30));
        assertThat(c.startupTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.queryMemoryBudgetBytes()).isEqualTo(1L << 30);
        assertThat(c.trustMode()).isTrue();
        assertThat(c.tls()).isNull();
        assertThat(c.maxPendingStartups()).isEqualTo(64);
        assertThat(c.allowTrustOnNetwork()).isFalse();
    }

    @Test
    void thePlacerIsOnWithThePapersParametersAndEveryOneCanBeSet() {
        ServerConfig d = ServerConfig.defaults();
        assertThat(d.placer()).isEqualTo(PlacerSettings.DEFAULT);
        assertThat(d.placer().enabled()).isTrue();
        ServerConfig c = d.with(Map.of("placer", "off", "placer.period", "2s", "placer.sample", "50ms",
                "placer.eligibility", "25%", "placer.imbalance", "0.5", "placer.saturation", "0.8",
                "placer.max-memory-throughput", "40g"));
        assertThat(c.placer()).isEqualTo(new PlacerSettings(false, 2000, 50, 0.25, 0.5, 0.8, 40.0 * (1L << 30)));
        assertThat(c.placer().move()).isEqualTo(MoveStrategy.COPY);
        assertThat(d.with("placer.move", "migrate").placer().move()).isEqualTo(MoveStrategy.MIGRATE_PAGES);
        assertThatThrownBy(() -> d.with("placer.move", "teleport")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("placer.move").hasMessageContaining("teleport");
        assertThatThrownBy(() -> d.with("placer", "maybe")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("placer");
        assertThatThrownBy(() -> d.with("placer.imbalance", "140%")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("placer.imbalance");
        assertThatThrownBy(() -> d.with("placer.period", "50ms").with("placer.sample", "1s"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void trustModeIsRefusedOnANonLoopbackAddressUnlessExplicitlyAllowed() {
        ServerConfig d = ServerConfig.defaults();
        d.requireSafeExposure();
        d.with("bind", "localhost").requireSafeExposure();
        d.with("bind", "::1").requireSafeExposure();
        assertThatThrownBy(() -> d.with("bind", "0.0.0.0").requireSafeExposure())
                .isInstanceOf(UnsafeExposureException.class)
                .hasMessageContaining("bind = 0.0.0.0").hasMessageContaining("trust mode")
                .hasMessageContaining("user.NAME").hasMessageContaining("allow-trust-on-network=true");
        d.with("bind", "0.0.0.0").with("allow-trust-on-network", "true").requireSafeExposure();
        d.with("bind", "0.0.0.0").with("token.ci", Authenticator.tokenHash("t")).requireSafeExposure();
        assertThatThrownBy(() -> d.with("allow-trust-on-network", "yes"))
                .hasMessageContaining("allow-trust-on-network: 'yes' is not true or false");
    }

    @Test
    void aPropertiesFileSetsLimitsUsersTokensAndTls(@TempDir Path dir) throws Exception {
        String alice = PasswordHash.create("pw".toCharArray(), 10).format();
        Path file = dir.resolve("server.properties");
        Files.writeString(file, String.join("\n",
                "port = 0", "bind = 0.0.0.0", "max-frame-bytes = 1m", "idle-timeout = 90s", "startup-timeout = 500ms",
                "query-memory-budget = 256MiB", "max-sessions = 7", "metrics.port = -1", "max-pending-startups = 9",
                "user.alice = " + alice, "token.ci = " + Authenticator.tokenHash("t"),
                "tls.keystore = " + dir.resolve("k.p12"), "tls.keystore-password = x"));
        ServerConfig c = ServerConfig.load(file);
        assertThat(c.port()).isZero();
        assertThat(c.bindAddress()).isEqualTo("0.0.0.0");
        assertThat(c.maxFrameBytes()).isEqualTo(1 << 20);
        assertThat(c.idleTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(c.startupTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(c.queryMemoryBudgetBytes()).isEqualTo(256L << 20);
        assertThat(c.maxSessions()).isEqualTo(7);
        assertThat(c.maxPendingStartups()).isEqualTo(9);
        assertThat(c.users()).containsEntry("alice", alice);
        assertThat(c.tokens()).containsKey("ci");
        assertThat(c.trustMode()).isFalse();
        assertThat(c.tls().keystore()).isEqualTo(dir.resolve("k.p12"));
    }

    @Test
    void theDockerExampleSettingsLoadAndTheirCommentedKeysExist() throws Exception {
        Path example = Path.of("..", "docker", "server.properties.example");
        ServerConfig c = ServerConfig.load(example);
        assertThat(c.metricsBindAddress()).isEqualTo("0.0.0.0");
        assertThat(c.allowTrustOnNetwork()).isTrue();
        c.with("bind", "0.0.0.0").requireSafeExposure();
        for (String line : Files.readAllLines(example)) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^# ?([a-z][a-z.-]*) = .*").matcher(line);
            if (m.matches() && !m.group(1).startsWith("user.") && !m.group(1).startsWith("token.")) {
                assertThat(ServerConfig.KEYS).as(line).containsKey(m.group(1));
            }
        }
    }

    @Test
    void badSettingsAreRefusedNamingTheKey() {
        ServerConfig d = ServerConfig.defaults();
        assertThatThrownBy(() -> d.with("idle-timout", "1s")).hasMessageContaining("unknown setting 'idle-timout'");
        assertThatThrownBy(() -> d.with("idle-timeout", "soon")).hasMessageContaining("idle-timeout");
        assertThatThrownBy(() -> d.with("max-frame-bytes", "4g")).hasMessageContaining("max-frame-bytes");
        assertThatThrownBy(() -> d.with("port", "70000")).hasMessageContaining("port");
        assertThatThrownBy(() -> d.with("max-pending-startups", "0")).hasMessageContaining("max-pending-startups");
        assertThatThrownBy(() -> d.with("user.bob", "plaintext")).hasMessageContaining("user.bob");
        assertThatThrownBy(() -> d.with("token.x", "sha256:abc")).hasMessageContaining("token.x");
    }
}
