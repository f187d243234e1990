package io.locusdb.bench.clients;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.SplittableRandom;

/**
 * One query of the client mix: its SQL with {@code ?} parameters, how a client draws parameter values, and how it
 * checks the answer against the {@link LineitemReference}.
 */
public interface MixQuery {
    String name();

    String sql();

    /**
     * Binds random parameters, executes, reads the whole result and checks it. Returns the rows read; a wrong
     * answer throws {@link WrongAnswerException} saying what differed.
     */
    long runAndCheck(PreparedStatement statement, SplittableRandom random) throws SQLException;

    default PreparedStatement prepare(Connection connection) throws SQLException {
        return connection.prepareStatement(sql());
    }

    final class WrongAnswerException extends RuntimeException {
        public WrongAnswerException(String message) {
            super(message);
        }
    }
}
