package io.locusdb.core.query.expr;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.type.ColumnType;
import java.util.regex.Pattern;

/**
 * {@code s LIKE pattern [ESCAPE e]} with a constant pattern: prefix, suffix, infix and exact patterns test
 * directly, others through a regular expression. On a dictionary-encoded input each distinct code is tested once
 * per dictionary, not once per row.
 */
public final class Like extends Expr {
    private final Expr input;
    private final String pattern;
    private final Matcher matcher;
    private StringDictionary cachedDictionary;
    private byte[] cachedCodes;

    @FunctionalInterface
    private interface Matcher {
        boolean matches(String s);
    }

    public Like(Expr input, String pattern, Character escape) {
        super(ColumnType.BOOLEAN);
        this.input = input;
        this.pattern = pattern;
        this.matcher = compile(pattern, escape);
    }

    private Like(Expr input, String pattern, Matcher matcher) {
        super(ColumnType.BOOLEAN);
        this.input = input;
        this.pattern = pattern;
        this.matcher = matcher;
    }

    private static Matcher compile(String pattern, Character escape) {
        StringBuilder literal = new StringBuilder();
        StringBuilder regex = new StringBuilder();
        boolean simple = true;
        int percents = 0;
        boolean leading = false;
        boolean trailing = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape != null && c == escape && i + 1 < pattern.length()) {
                char next = pattern.charAt(++i);
                literal.append(next);
                regex.append(Pattern.quote(String.valueOf(next)));
            } else if (c == '%') {
                regex.append(".*");
                percents++;
                if (i == 0) {
                    leading = true;
                } else if (i == pattern.length() - 1) {
                    trailing = true;
                } else {
                    simple = false;
                }
            } else if (c == '_') {
                regex.append('.');
                simple = false;
            } else {
                literal.append(c);
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        String text = literal.toString();
        if (simple && percents == (leading ? 1 : 0) + (trailing ? 1 : 0)) {
            if (leading && trailing) {
                return s -> s.contains(text);
            }
            if (leading) {
                return s -> s.endsWith(text);
            }
            if (trailing) {
                return s -> s.startsWith(text);
            }
            return text::equals;
        }
        Pattern compiled = Pattern.compile(regex.toString(), Pattern.DOTALL);
        return s -> compiled.matcher(s).matches();
    }

    @Override
    public ColumnVector eval(ColumnVector[] inputs, int rows) {
        ColumnVector v = input.eval(inputs, rows);
        ColumnVector out = out(rows);
        long[] r = out.longs();
        if (v.isEncoded()) {
            byte[] memo = memo(v.dictionary());
            int[] codes = v.codes();
            for (int i = 0; i < rows; i++) {
                if (v.isNull(i)) {
                    out.setNull(i);
                    continue;
                }
                int code = codes[i];
                if (memo[code] == 0) {
                    memo[code] = (byte) (matcher.matches(v.dictionary().value(code)) ? 1 : 2);
                }
                r[i] = memo[code] == 1 ? 1 : 0;
            }
            return out;
        }
        for (int i = 0; i < rows; i++) {
            if (v.isNull(i)) {
                out.setNull(i);
            } else {
                r[i] = matcher.matches(v.string(i)) ? 1 : 0;
            }
        }
        return out;
    }

    /** Per-code outcomes for one dictionary: 0 untested, 1 match, 2 no match. */
    private byte[] memo(StringDictionary dictionary) {
        if (dictionary != cachedDictionary) {
            cachedDictionary = dictionary;
            cachedCodes = new byte[dictionary.size() + 1];
        }
        return cachedCodes;
    }

    @Override
    protected Expr copy(ExprCopier copier) {
        // The matcher is immutable: the copy shares it and caches its own per-dictionary answers.
        return new Like(copier.copy(input), pattern, matcher);
    }

    @Override
    public String toString() {
        return input + " LIKE '" + pattern + "'";
    }
}
