package io.locusdb.server.slt;

import io.locusdb.server.slt.SltRecord.SortMode;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * Runs a parsed script over one JDBC connection and judges each record the way SQLite's runner does: values are
 * formatted by the query's column types ({@code I}: integer, truncated; {@code R}: three decimals; {@code T}: text,
 * {@code (empty)} for the empty string; {@code NULL} for any null), sorted as the record asks, and compared one by
 * one or by the MD5 of the values, each followed by a newline.
 */
final class SltRunner {
    /** What happened to one record. */
    enum Verdict {
        /** As the script says. */
        PASSED,
        /** Ran, but the values differ, or a statement that should fail succeeded. */
        WRONG,
        /**
         * LocusDB refused or failed a record the script expects to work; or the record's values differ after an
         * earlier statement of the file failed, so that the tables are not what the script built and the answer
         * cannot be judged.
         */
        FAILED
    }

    record Outcome(String file, SltRecord record, Verdict verdict, String sql, String expected, String actual) {
        /** {@code file:line} of the record. */
        String where() {
            return file + ":" + record.line();
        }

        String describe() {
            return file + ":" + record.line() + " " + verdict + "\n    " + sql.replace("\n", "\n    ")
                    + "\n    expected: " + expected + "\n    actual:   " + actual;
        }
    }

    private SltRunner() {
    }

    static List<Outcome> run(String file, List<SltRecord> records, Connection connection) throws SQLException {
        List<Outcome> outcomes = new ArrayList<>();
        int threshold = 0;
        SltRecord firstFailedStatement = null;
        try (Statement statement = connection.createStatement()) {
            for (SltRecord record : records) {
                Outcome outcome = switch (record) {
                    case SltRecord.Halt halt -> null;
                    case SltRecord.HashThreshold t -> {
                        threshold = t.threshold();
                        yield null;
                    }
                    case SltRecord.Statement s -> statement(file, s, statement);
                    case SltRecord.Query q -> query(file, q, statement, threshold);
                };
                if (record instanceof SltRecord.Halt) {
                    break;
                }
                if (outcome == null) {
                    continue;
                }
                if (outcome.verdict() == Verdict.WRONG && firstFailedStatement != null) {
                    outcome = new Outcome(file, record, Verdict.FAILED, outcome.sql(), outcome.expected(),
                            outcome.actual() + " (after the statement at line " + firstFailedStatement.line()
                                    + " failed)");
                }
                if (record instanceof SltRecord.Statement && outcome.verdict() != Verdict.PASSED
                        && firstFailedStatement == null) {
                    firstFailedStatement = record;
                }
                outcomes.add(outcome);
            }
        }
        return outcomes;
    }

    private static Outcome statement(String file, SltRecord.Statement s, Statement statement) {
        try {
            statement.execute(s.sql());
            return s.expectError()
                    ? new Outcome(file, s, Verdict.WRONG, s.sql(), "an error", "succeeded")
                    : new Outcome(file, s, Verdict.PASSED, s.sql(), "ok", "ok");
        } catch (SQLException e) {
            return s.expectError()
                    ? new Outcome(file, s, Verdict.PASSED, s.sql(), "an error", "an error")
                    : new Outcome(file, s, Verdict.FAILED, s.sql(), "ok", describe(e));
        }
    }

    private static Outcome query(String file, SltRecord.Query q, Statement statement, int threshold) {
        List<String> values;
        try (ResultSet rs = statement.executeQuery(q.sql())) {
            values = values(rs, q.types(), q.sort());
        } catch (SQLException | RuntimeException e) {
            return new Outcome(file, q, Verdict.FAILED, q.sql(), expected(q), describe(e));
        }
        boolean same;
        String actual;
        if (q.hash() != null) {
            String hash = md5(values);
            same = values.size() == q.expectedCount() && hash.equals(q.hash());
            actual = values.size() > threshold || values.size() != q.expectedCount()
                    ? values.size() + " values hashing to " + hash + shortList(values) : values.toString();
        } else {
            same = values.equals(q.expected());
            actual = values.toString();
        }
        return new Outcome(file, q, same ? Verdict.PASSED : Verdict.WRONG, q.sql(), expected(q), actual);
    }

    private static String expected(SltRecord.Query q) {
        return q.hash() != null ? q.expectedCount() + " values hashing to " + q.hash() : q.expected().toString();
    }

    private static String shortList(List<String> values) {
        return values.size() <= 40 ? " " + values : " " + values.subList(0, 40) + "...";
    }

    private static String describe(Exception e) {
        String state = e instanceof SQLException sql && sql.getSQLState() != null ? sql.getSQLState() + " " : "";
        String message = String.valueOf(e.getMessage());
        int newline = message.indexOf('\n');
        return state + (newline < 0 ? message : message.substring(0, newline));
    }

    static List<String> values(ResultSet rs, String types, SortMode sort) throws SQLException {
        int columns = rs.getMetaData().getColumnCount();
        List<List<String>> rows = new ArrayList<>();
        while (rs.next()) {
            List<String> row = new ArrayList<>(columns);
            for (int c = 1; c <= columns; c++) {
                char type = c <= types.length() ? types.charAt(c - 1) : 'T';
                row.add(format(rs.getObject(c), type));
            }
            rows.add(row);
        }
        if (sort == SortMode.ROWSORT) {
            rows.sort((a, b) -> {
                for (int i = 0; i < a.size(); i++) {
                    int c = a.get(i).compareTo(b.get(i));
                    if (c != 0) {
                        return c;
                    }
                }
                return 0;
            });
        }
        List<String> values = new ArrayList<>(rows.size() * columns);
        for (List<String> row : rows) {
            values.addAll(row);
        }
        if (sort == SortMode.VALUESORT) {
            values.sort(null);
        }
        return values;
    }

    /** One value as SQLite's runner prints it for a column of {@code type}. */
    static String format(Object value, char type) {
        if (value == null) {
            return "NULL";
        }
        switch (type) {
            case 'I' -> {
                return Long.toString(asLong(value));
            }
            case 'R' -> {
                double d = value instanceof Number n ? n.doubleValue() : asDouble(value.toString());
                return String.format(Locale.ROOT, "%.3f", d);
            }
            default -> {
                String text = value instanceof BigDecimal big ? big.toPlainString() : value.toString();
                if (text.isEmpty()) {
                    return "(empty)";
                }
                StringBuilder printable = new StringBuilder(text.length());
                for (int i = 0; i < text.length(); i++) {
                    char ch = text.charAt(i);
                    printable.append(ch < ' ' || ch > '~' ? '@' : ch);
                }
                return printable.toString();
            }
        }
    }

    private static long asLong(Object value) {
        if (value instanceof Number n) {
            // toward zero, as C's cast does; BigDecimal.longValue truncates too
            return n instanceof Double || n instanceof Float ? (long) n.doubleValue() : n.longValue();
        }
        if (value instanceof Boolean b) {
            return b ? 1 : 0;
        }
        return (long) asDouble(value.toString());
    }

    /** The number a text starts with, as SQLite reads one (0 when it starts with none). */
    private static double asDouble(String text) {
        String s = text.strip();
        int end = 0;
        while (end < s.length() && "+-.0123456789eE".indexOf(s.charAt(end)) >= 0) {
            end++;
        }
        for (int k = end; k > 0; k--) {
            try {
                return Double.parseDouble(s.substring(0, k));
            } catch (NumberFormatException e) {
                // a shorter prefix may still be a number
            }
        }
        return 0;
    }

    static String md5(List<String> values) {
        try {
            MessageDigest digest = MessageDigest.getInstance("MD5");
            for (String v : values) {
                digest.update(v.getBytes(StandardCharsets.UTF_8));
                digest.update((byte) '\n');
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
