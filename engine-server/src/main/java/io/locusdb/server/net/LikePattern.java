package io.locusdb.server.net;

import java.util.ArrayList;
import java.util.List;

/**
 * SQL LIKE for catalog names: {@code %} any run, {@code _} one character, {@code \} escapes, case-insensitive, empty
 * matches everything. Matched greedily with backtracking to the last {@code %} only, so a hostile pattern costs at
 * most pattern × name steps (no regular expression).
 */
final class LikePattern {
    private static final int ANY_RUN = -1;
    private static final int ANY_ONE = -2;

    private final int[] tokens;

    private LikePattern(int[] tokens) {
        this.tokens = tokens;
    }

    static LikePattern compile(String pattern) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                out.add(fold(pattern.charAt(++i)));
            } else if (c == '%') {
                if (out.isEmpty() || out.getLast() != ANY_RUN) {
                    out.add(ANY_RUN);
                }
            } else if (c == '_') {
                out.add(ANY_ONE);
            } else {
                out.add(fold(c));
            }
        }
        if (pattern.isEmpty()) {
            out.add(ANY_RUN);
        }
        return new LikePattern(out.stream().mapToInt(Integer::intValue).toArray());
    }

    boolean matches(String name) {
        int p = 0;
        int s = 0;
        int starP = -1;
        int starS = 0;
        while (s < name.length()) {
            if (p < tokens.length && tokens[p] != ANY_RUN
                    && (tokens[p] == ANY_ONE || tokens[p] == fold(name.charAt(s)))) {
                p++;
                s++;
            } else if (p < tokens.length && tokens[p] == ANY_RUN) {
                starP = p++;
                starS = s;
            } else if (starP >= 0) {
                p = starP + 1;
                s = ++starS;
            } else {
                return false;
            }
        }
        while (p < tokens.length && tokens[p] == ANY_RUN) {
            p++;
        }
        return p == tokens.length;
    }

    private static int fold(char c) {
        return Character.toLowerCase(Character.toUpperCase(c));
    }
}
