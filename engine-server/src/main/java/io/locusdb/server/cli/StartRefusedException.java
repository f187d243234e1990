package io.locusdb.server.cli;

/**
 * A start the command refuses before doing anything (the data directory holds something else than was asked for):
 * the message names what was found, what was asked and the way out; the command line prints it as one line and
 * exits with 2.
 */
public final class StartRefusedException extends RuntimeException {
    public StartRefusedException(String message) {
        super(message);
    }
}
