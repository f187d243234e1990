package io.locusdb.server.net;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;

/** The server's TLS context, from a PKCS#12 keystore or PEM files; the JDK provider, TLS 1.3 and 1.2 only. */
public final class TlsContexts {
    private TlsContexts() {
    }

    public static SslContext forServer(ServerConfig.Tls tls) {
        try {
            SslContextBuilder builder;
            if (tls.keystore() != null) {
                char[] password = tls.keystorePassword() == null ? new char[0] : tls.keystorePassword().toCharArray();
                KeyStore store = KeyStore.getInstance("PKCS12");
                try (InputStream in = Files.newInputStream(tls.keystore())) {
                    store.load(in, password);
                }
                KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(store, password);
                builder = SslContextBuilder.forServer(keys);
            } else {
                builder = SslContextBuilder.forServer(tls.certificate().toFile(), tls.privateKey().toFile(),
                        tls.keyPassword());
            }
            return builder.sslProvider(SslProvider.JDK).protocols("TLSv1.3", "TLSv1.2").build();
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            String source = tls.keystore() != null ? "keystore " + tls.keystore() : "certificate " + tls.certificate();
            throw new IllegalArgumentException("TLS: cannot use " + source + ": " + e.getMessage(), e);
        }
    }
}
