package io.locusdb.server.pg;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The statements a PostgreSQL session answers itself, without the engine: transaction control, settings and the
 * clean-up that connection pools send ({@code DISCARD ALL}, {@code CLOSE ALL}, {@code UNLISTEN *},
 * {@code DEALLOCATE}). {@link #parse} returns null for everything else.
 */
public sealed interface PgCommand {
    enum TransactionStep { BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE, ROLLBACK_TO }

    record Transaction(TransactionStep step) implements PgCommand {
    }

    /** SET [SESSION | LOCAL] name TO/= value; {@code value} null means DEFAULT. */
    record Set(String name, String value, boolean local) implements PgCommand {
    }

    /** SET TRANSACTION / SET SESSION CHARACTERISTICS: accepted, nothing to do (every statement is atomic). */
    record SetTransaction() implements PgCommand {
    }

    /** SHOW name, or SHOW ALL when {@code name} is null. */
    record Show(String name) implements PgCommand {
    }

    /** RESET name, or RESET ALL when {@code name} is null. */
    record Reset(String name) implements PgCommand {
    }

    record DiscardAll() implements PgCommand {
    }

    /** CLOSE name, or CLOSE ALL when null. */
    record CloseCursor(String name) implements PgCommand {
    }

    record Unlisten() implements PgCommand {
    }

    /** DEALLOCATE [PREPARE] name, or ALL when null. */
    record Deallocate(String name) implements PgCommand {
    }

    /** The command tag PostgreSQL answers with. */
    default String tag() {
        return switch (this) {
            case Transaction t -> switch (t.step()) {
                case BEGIN -> "BEGIN";
                case COMMIT -> "COMMIT";
                case ROLLBACK, ROLLBACK_TO -> "ROLLBACK";
                case SAVEPOINT -> "SAVEPOINT";
                case RELEASE -> "RELEASE";
            };
            case Set s -> "SET";
            case SetTransaction s -> "SET";
            case Show s -> "SHOW";
            case Reset r -> "RESET";
            case DiscardAll d -> "DISCARD ALL";
            case CloseCursor c -> c.name() == null ? "CLOSE CURSOR ALL" : "CLOSE CURSOR";
            case Unlisten u -> "UNLISTEN";
            case Deallocate d -> d.name() == null ? "DEALLOCATE ALL" : "DEALLOCATE";
        };
    }

    static PgCommand parse(String sql) {
        List<String> tokens = tokens(sql);
        if (tokens.isEmpty()) {
            return null;
        }
        String first = upper(tokens.get(0));
        String second = tokens.size() > 1 ? upper(tokens.get(1)) : "";
        return switch (first) {
            case "BEGIN" -> new Transaction(TransactionStep.BEGIN);
            case "START" -> second.equals("TRANSACTION") ? new Transaction(TransactionStep.BEGIN) : null;
            case "COMMIT", "END" -> new Transaction(TransactionStep.COMMIT);
            case "ABORT" -> new Transaction(TransactionStep.ROLLBACK);
            case "ROLLBACK" -> tokens.stream().skip(1).map(PgCommand::upper).anyMatch("TO"::equals)
                    ? new Transaction(TransactionStep.ROLLBACK_TO) : new Transaction(TransactionStep.ROLLBACK);
            case "SAVEPOINT" -> new Transaction(TransactionStep.SAVEPOINT);
            case "RELEASE" -> new Transaction(TransactionStep.RELEASE);
            case "SET" -> set(tokens);
            case "SHOW" -> tokens.size() < 2 ? null : second.equals("ALL") ? new Show(null)
                    : new Show(name(tokens, 1, tokens.size()));
            case "RESET" -> tokens.size() < 2 ? null : second.equals("ALL") ? new Reset(null)
                    : new Reset(name(tokens, 1, tokens.size()));
            case "DISCARD" -> second.equals("ALL") ? new DiscardAll() : null;
            case "CLOSE" -> tokens.size() < 2 ? null : second.equals("ALL") ? new CloseCursor(null)
                    : new CloseCursor(tokens.get(1));
            case "UNLISTEN" -> new Unlisten();
            case "DEALLOCATE" -> {
                int at = second.equals("PREPARE") ? 2 : 1;
                yield tokens.size() <= at ? null : upper(tokens.get(at)).equals("ALL") ? new Deallocate(null)
                        : new Deallocate(tokens.get(at));
            }
            default -> null;
        };
    }

    private static PgCommand set(List<String> tokens) {
        int i = 1;
        boolean local = false;
        if (i < tokens.size() && (upper(tokens.get(i)).equals("SESSION") || upper(tokens.get(i)).equals("LOCAL"))) {
            local = upper(tokens.get(i)).equals("LOCAL");
            i++;
        }
        if (i >= tokens.size()) {
            return null;
        }
        String word = upper(tokens.get(i));
        if (word.equals("TRANSACTION") || word.equals("CHARACTERISTICS")) {
            return new SetTransaction();
        }
        if (word.equals("TIME") && i + 1 < tokens.size() && upper(tokens.get(i + 1)).equals("ZONE")) {
            return new Set("TimeZone", value(tokens, i + 2), local);
        }
        if (word.equals("NAMES")) {
            return new Set("client_encoding", value(tokens, i + 1), local);
        }
        if (word.equals("SCHEMA")) {
            return new Set("search_path", value(tokens, i + 1), local);
        }
        if (word.equals("SESSION") && i + 1 < tokens.size()
                && upper(tokens.get(i + 1)).equals("AUTHORIZATION")) {
            return new Set("session_authorization", value(tokens, i + 2), local);
        }
        int to = i + 1;
        while (to < tokens.size() && !tokens.get(to).equals("=") && !upper(tokens.get(to)).equals("TO")) {
            to++;
        }
        if (to >= tokens.size()) {
            return null;
        }
        return new Set(name(tokens, i, to), value(tokens, to + 1), local);
    }

    /**
     * A setting name from tokens {@code from..to}: one word (possibly dotted), or one of the SQL standard's
     * several-word spellings ({@code TRANSACTION ISOLATION LEVEL}, {@code TIME ZONE}, {@code SESSION AUTHORIZATION}).
     */
    private static String name(List<String> tokens, int from, int to) {
        List<String> words = new ArrayList<>();
        for (int i = from; i < to; i++) {
            words.add(PgSqlText.unquote(tokens.get(i)));
        }
        String joined = String.join(" ", words).toUpperCase(Locale.ROOT);
        return switch (joined) {
            case "TRANSACTION ISOLATION LEVEL" -> "transaction_isolation";
            case "TIME ZONE" -> "TimeZone";
            case "SESSION AUTHORIZATION" -> "session_authorization";
            default -> String.join("_", words);
        };
    }

    /** A setting's value: its items joined by ", ", quotes removed; null for DEFAULT or nothing. */
    private static String value(List<String> tokens, int from) {
        if (from >= tokens.size() || (from == tokens.size() - 1 && upper(tokens.get(from)).equals("DEFAULT"))) {
            return null;
        }
        List<String> items = new ArrayList<>();
        StringBuilder item = new StringBuilder();
        for (int i = from; i < tokens.size(); i++) {
            String t = tokens.get(i);
            if (t.equals(",")) {
                items.add(item.toString());
                item.setLength(0);
            } else {
                if (!item.isEmpty()) {
                    item.append(' ');
                }
                item.append(PgSqlText.unquote(t));
            }
        }
        items.add(item.toString());
        return String.join(", ", items);
    }

    private static String upper(String s) {
        return s.toUpperCase(Locale.ROOT);
    }

    /** Words, numbers, quoted strings and names, and single punctuation characters; comments dropped. */
    static List<String> tokens(String sql) {
        List<String> tokens = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-'
                    || c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                i = PgSqlText.skip(sql, i);
            } else if (c == '\'' || c == '"' || c == '$') {
                int end = PgSqlText.skip(sql, i);
                tokens.add(sql.substring(i, end));
                i = end;
            } else if ((c == 'E' || c == 'e') && i + 1 < n && sql.charAt(i + 1) == '\'') {
                int end = PgSqlText.skip(sql, i + 1);
                tokens.add(sql.substring(i, end));
                i = end;
            } else if (Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-' || c == '+') {
                int j = i;
                while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || "_.-+:/".indexOf(sql.charAt(j)) >= 0)) {
                    j++;
                }
                tokens.add(sql.substring(i, j));
                i = j;
            } else {
                tokens.add(String.valueOf(c));
                i++;
            }
        }
        return tokens;
    }
}
