package io.locusdb.server.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random and mutated PostgreSQL messages, each case on its own connection after a valid login: the server answers
 * with ErrorResponse and/or closes once the peer stops sending, never reports an internal error (XX000), and a
 * healthy pgjdbc session keeps getting right answers throughout. Reproducible: {@code -Dfuzz.seed=N},
 * {@code -Dfuzz.cases=N}.
 */
class PgProtocolFuzzTest {
    static final int CASES = Integer.getInteger("fuzz.cases", 400);
    static final long SEED = Long.getLong("fuzz.seed", 20_261_128L);

    static final List<byte[]> SEEDS = List.of(
            typed('Q', cstring("SELECT id, name FROM items WHERE id < 4")),
            typed('Q', cstring("SELECT 1; SELECT nope; SELECT 2")),
            concat(typed('P', concat(cstring("s1"), cstring("SELECT id FROM items WHERE id = $1"), shorts(1),
                    ints(20))), typed('B', concat(cstring(""), cstring("s1"), shorts(1), shorts(1), shorts(1), ints(8),
                    longs(2), shorts(1), shorts(1))), typed('D', concat(new byte[] {'P'}, cstring(""))),
                    typed('E', concat(cstring(""), ints(0))), typed('S', new byte[0])),
            typed('C', concat(new byte[] {'S'}, cstring("s1"))),
            typed('H', new byte[0]),
            typed('d', "1\tx\n".getBytes(StandardCharsets.UTF_8)),
            typed('Q', cstring("COPY items TO STDOUT WITH (FORMAT csv)")),
            typed('F', ints(0, 0, 0)));

    @Test
    void randomMessagesGetErrorsOrACloseAndHealthySessionsCarryOn() throws Exception {
        Map<String, String> settings = Map.of("pg.port", "0", "idle-timeout", "20s");
        try (LocusServer server = TestServers.start(settings, TestServers.ITEMS)) {
            Properties p = new Properties();
            p.setProperty("user", "healthy");
            try (Connection healthy = DriverManager.getConnection(server.pgJdbcUrl("locus"), p)) {
                Random random = new Random(SEED);
                List<String> internal = new ArrayList<>();
                int answeredWithErrors = 0;
                for (int i = 0; i < CASES; i++) {
                    byte[] payload = mutate(random);
                    String answer = fuzzCase(server.pgPort(), payload);
                    if (!answer.isBlank()) {
                        answeredWithErrors++;
                    }
                    if (answer.contains("XX000")) {
                        internal.add("case " + i + ": " + answer);
                    }
                    if (i % 100 == 0) {
                        try (ResultSet rs = healthy.createStatement().executeQuery("SELECT sum(id) FROM items")) {
                            rs.next();
                            assertThat(rs.getLong(1)).isEqualTo(15);
                        }
                    }
                }
                assertThat(internal).isEmpty();
                assertThat(answeredWithErrors).as("cases answered with ErrorResponse").isGreaterThan(CASES / 4);
            }
        }
    }

    /** Logs in, sends {@code payload}, stops sending and reads until the server closes; returns the error codes. */
    private static String fuzzCase(int port, byte[] payload) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(15_000);
            OutputStream out = s.getOutputStream();
            DataInputStream in = new DataInputStream(s.getInputStream());
            out.write(startup());
            readUntilReady(in);
            // A Sync after the payload: when the payload is complete messages, the session answers them all and
            // says ReadyForQuery; an incomplete one swallows the Sync, and the peer then hangs up.
            out.write(concat(payload, typed('S', new byte[0])));
            out.flush();
            StringBuilder codes = new StringBuilder();
            s.setSoTimeout(250);
            boolean ready = readAnswers(in, codes);
            s.setSoTimeout(15_000);
            if (ready) {
                out.write(typed('X', new byte[0]));
                out.flush();
            }
            s.shutdownOutput();
            return codes + errorCodes(in);
        }
    }

    /** Reads answers until ReadyForQuery (true), the end of the stream or a pause (false). */
    private static boolean readAnswers(DataInputStream in, StringBuilder codes) throws IOException {
        try {
            while (true) {
                int type = in.read();
                if (type < 0) {
                    return false;
                }
                int length = in.readInt();
                byte[] body = in.readNBytes(length - 4);
                if (type == 'E') {
                    codes.append(code(body)).append(' ');
                }
                if (type == 'Z') {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    private static String code(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8);
        int c = text.indexOf("\0C");
        return c >= 0 ? text.substring(c + 2, Math.min(text.length(), c + 7)) : "?";
    }

    private static void readUntilReady(DataInputStream in) throws IOException {
        while (true) {
            int type = in.readUnsignedByte();
            int length = in.readInt();
            in.skipNBytes(length - 4);
            if (type == 'Z') {
                return;
            }
        }
    }

    /** Reads to the end of the stream (the server must close), collecting ErrorResponse codes. */
    private static String errorCodes(InputStream raw) throws IOException {
        DataInputStream in = new DataInputStream(raw);
        StringBuilder codes = new StringBuilder();
        try {
            while (true) {
                int type = in.read();
                if (type < 0) {
                    return codes.toString();
                }
                int length = in.readInt();
                byte[] body = in.readNBytes(length - 4);
                if (type == 'E') {
                    codes.append(code(body)).append(' ');
                }
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server neither answered nor closed within 15 s; got " + codes, e);
        }
    }

    private static byte[] mutate(Random r) {
        byte[] seed = SEEDS.get(r.nextInt(SEEDS.size()));
        byte[] b = seed.clone();
        switch (r.nextInt(6)) {
            case 0 -> {
                for (int k = 0; k < 1 + r.nextInt(4); k++) {
                    b[r.nextInt(b.length)] = (byte) r.nextInt(256);
                }
            }
            case 1 -> b = Arrays.copyOf(b, r.nextInt(b.length));
            case 2 -> {
                if (b.length >= 5) {
                    ByteBuffer.wrap(b).putInt(1, r.nextInt(3) == 0 ? r.nextInt() : r.nextInt(b.length + 64));
                }
            }
            case 3 -> {
                b = new byte[r.nextInt(64)];
                r.nextBytes(b);
            }
            case 4 -> b = concat(b, SEEDS.get(r.nextInt(SEEDS.size())));
            default -> {
                b[0] = (byte) "QPBDESCHXdcfFpx\0".charAt(r.nextInt(16));
            }
        }
        return b;
    }

    private static byte[] startup() {
        byte[] params = concat(cstring("user"), cstring("fuzz"), cstring("database"), cstring("locus"), new byte[1]);
        return concat(ints(8 + params.length, 196608), params);
    }

    static byte[] typed(char type, byte[] body) {
        return concat(new byte[] {(byte) type}, ints(body.length + 4), body);
    }

    static byte[] cstring(String s) {
        return concat(s.getBytes(StandardCharsets.UTF_8), new byte[1]);
    }

    static byte[] shorts(int... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 2);
        for (int v : values) {
            b.putShort((short) v);
        }
        return b.array();
    }

    static byte[] ints(int... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4);
        for (int v : values) {
            b.putInt(v);
        }
        return b.array();
    }

    static byte[] longs(long... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 8);
        for (long v : values) {
            b.putLong(v);
        }
        return b.array();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
