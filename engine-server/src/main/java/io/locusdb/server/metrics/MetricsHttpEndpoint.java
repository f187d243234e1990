package io.locusdb.server.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** The Prometheus scrape endpoint: {@code GET /metrics} on its own port, answered on virtual threads. */
public final class MetricsHttpEndpoint implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(MetricsHttpEndpoint.class.getName());

    private final HttpServer server;
    private final ExecutorService executor;

    private MetricsHttpEndpoint(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    public static MetricsHttpEndpoint start(String bindAddress, int port, ServerMetrics metrics) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(bindAddress, port), 16);
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        server.createContext("/metrics", exchange -> answer(exchange, metrics));
        server.start();
        return new MetricsHttpEndpoint(server, executor);
    }

    private static void answer(HttpExchange exchange, ServerMetrics metrics) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body;
            try {
                body = metrics.scrape().getBytes(StandardCharsets.UTF_8);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "metrics scrape failed", e);
                exchange.sendResponseHeaders(500, -1);
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            if ("HEAD".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(200, -1);
                return;
            }
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String url() {
        return "http://" + server.getAddress().getHostString() + ":" + port() + "/metrics";
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
