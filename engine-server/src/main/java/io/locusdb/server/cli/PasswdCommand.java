package io.locusdb.server.cli;

import io.locusdb.server.net.Authenticator;
import io.locusdb.server.net.PasswordHash;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./locus passwd NAME}: prints the server configuration line for a user (the password is read from the
 * terminal, or from stdin when piped), or with {@code --token} a new random token and its line.
 */
@Command(name = "passwd", mixinStandardHelpOptions = true,
        description = "Print a user.NAME (salted PBKDF2) or token.NAME (SHA-256) line for the server configuration.")
public final class PasswdCommand implements Callable<Integer> {
    @Parameters(paramLabel = "NAME", description = "The user (or token) name.")
    String name;

    @Option(names = "--token", description = "Generate a random token instead of hashing a password.")
    boolean token;

    @Option(names = "--iterations", paramLabel = "N", description = "PBKDF2 iterations (default ${DEFAULT-VALUE}).")
    int iterations = PasswordHash.DEFAULT_ITERATIONS;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (!name.matches("[A-Za-z0-9_.@-]+")) {
            throw new IllegalArgumentException("a name may hold letters, digits and _ . @ - only");
        }
        PrintWriter out = spec.commandLine().getOut();
        if (token) {
            byte[] secret = new byte[32];
            new SecureRandom().nextBytes(secret);
            String value = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
            out.println("# the token (give it to the client; it is not stored): " + value);
            out.println("token." + name + " = " + Authenticator.tokenHash(value));
        } else {
            char[] password = readPassword();
            try {
                out.println("user." + name + " = " + PasswordHash.create(password, iterations).format());
            } finally {
                Arrays.fill(password, '\0');
            }
        }
        out.flush();
        return 0;
    }

    private static char[] readPassword() throws IOException {
        Console console = System.console();
        if (console != null) {
            char[] first = console.readPassword("password: ");
            char[] again = console.readPassword("again: ");
            if (first == null || !Arrays.equals(first, again)) {
                throw new IllegalArgumentException("the passwords differ");
            }
            return first;
        }
        String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        if (line == null || line.isEmpty()) {
            throw new IllegalArgumentException("no password on stdin");
        }
        return line.toCharArray();
    }
}
