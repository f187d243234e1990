package io.locusdb.server.cli;

import java.util.ArrayList;
import java.util.List;

/** Splits SQL text at the semicolons that end statements (not those inside strings, quoted names or comments). */
final class StatementSplitter {
    private StatementSplitter() {
    }

    /** Every non-blank statement of {@code script}, the last one with or without its ';'. */
    static List<String> split(String script) {
        StringBuilder buffer = new StringBuilder(script);
        List<String> statements = complete(buffer);
        if (!buffer.toString().isBlank()) {
            statements.add(buffer.toString().strip());
        }
        return statements;
    }

    /** Removes the complete statements from the front of {@code buffer} and returns them (without ';'). */
    static List<String> complete(StringBuilder buffer) {
        List<String> statements = new ArrayList<>();
        int start = 0;
        char quote = 0;
        boolean lineComment = false;
        for (int i = 0; i < buffer.length(); i++) {
            char c = buffer.charAt(i);
            if (lineComment) {
                lineComment = c != '\n';
            } else if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '-' && i + 1 < buffer.length() && buffer.charAt(i + 1) == '-') {
                lineComment = true;
            } else if (c == ';') {
                String statement = buffer.substring(start, i).strip();
                if (!statement.isEmpty()) {
                    statements.add(statement);
                }
                start = i + 1;
            }
        }
        buffer.delete(0, start);
        return statements;
    }
}
