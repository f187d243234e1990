package io.locusdb.core.query.expr;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.type.ColumnType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
    /** The same test on a dictionary value's UTF-8 bytes, for the simple patterns; null for the others. */
    private final Utf8Matcher utf8;
    /**
     * For a pattern other than {@code %literal%}: the dictionary searched for the pattern's longest literal, each
     * value holding it then tested whole; null where the pattern has no literal of two bytes or more.
     */
    private final DictionarySearch literalSearch;
    private StringDictionary cachedDictionary;
    private byte[] cachedCodes;
    /** Rows this copy tested against {@link #countedDictionary}: when to search the whole dictionary instead. */
    private long rowsOnDictionary;
    private StringDictionary countedDictionary;
    /** A dictionary value's bytes, copied to the heap to be searched (per task: each evaluates its own copy). */
    private byte[] scratch = new byte[64];

    @FunctionalInterface
    private interface Matcher {
        boolean matches(String s);
    }

    /**
     * A simple pattern's test on UTF-8 bytes: equal code points are equal byte runs, and no character's encoding
     * starts inside another's, so a byte search finds exactly what a search of the string finds.
     */
    private record Utf8Matcher(byte[] literal, boolean leading, boolean trailing, DictionarySearch search) {
        Utf8Matcher(byte[] literal, boolean leading, boolean trailing) {
            this(literal, leading, trailing, leading && trailing && literal.length > 0
                    ? new DictionarySearch(literal) : null);
        }

        boolean matches(byte[] value, int length) {
            int m = literal.length;
            if (m > length || !leading && !trailing && m != length) {
                return false;
            }
            if (!leading) {
                return Arrays.equals(value, 0, m, literal, 0, m);
            }
            if (!trailing) {
                return Arrays.equals(value, length - m, length, literal, 0, m);
            }
            if (m == 0) {
                return true;
            }
            byte first = literal[0];
            for (int i = 0, last = length - m; i <= last; i++) {
                if (value[i] == first && Arrays.equals(value, i + 1, i + m, literal, 1, m)) {
                    return true;
                }
            }
            return false;
        }
    }

    public Like(Expr input, String pattern, Character escape) {
        super(ColumnType.BOOLEAN);
        this.input = input;
        this.pattern = pattern;
        this.matcher = compile(pattern, escape);
        this.utf8 = compileUtf8(pattern, escape);
        this.literalSearch = utf8 != null && utf8.search() != null ? null : literalSearch(pattern, escape, matcher);
    }

    private Like(Expr input, String pattern, Matcher matcher, Utf8Matcher utf8, DictionarySearch literalSearch) {
        super(ColumnType.BOOLEAN);
        this.input = input;
        this.pattern = pattern;
        this.matcher = matcher;
        this.utf8 = utf8;
        this.literalSearch = literalSearch;
    }

    /** What the search results of a pattern's literal search are kept under: the same pattern decides alike. */
    private record PatternKey(String pattern, Character escape) {
    }

    /**
     * The search for the longest run of literal characters in {@code pattern} (every match holds it), whose found
     * values the whole pattern then decides; null where no run has two bytes or more (too common to be worth it).
     */
    private static DictionarySearch literalSearch(String pattern, Character escape, Matcher matcher) {
        String longest = "";
        StringBuilder run = new StringBuilder();
        for (int i = 0; i <= pattern.length(); i++) {
            char c = i < pattern.length() ? pattern.charAt(i) : '%';
            if (escape != null && c == escape && i + 1 < pattern.length()) {
                run.append(pattern.charAt(++i));
            } else if (c == '%' || c == '_') {
                if (run.length() > longest.length()) {
                    longest = run.toString();
                }
                run.setLength(0);
            } else {
                run.append(c);
            }
        }
        if (!StandardCharsets.UTF_8.newEncoder().canEncode(longest)) {
            return null;
        }
        byte[] needle = longest.getBytes(StandardCharsets.UTF_8);
        if (needle.length < 2) {
            return null;
        }
        return new DictionarySearch(needle, new PatternKey(pattern, escape),
                (bytes, from, to) -> matcher.matches(new String(bytes, from, to - from, StandardCharsets.UTF_8)));
    }

    /** The byte test of a pattern that is a literal with at most a leading and a trailing '%'; null otherwise. */
    private static Utf8Matcher compileUtf8(String pattern, Character escape) {
        if (escape != null && (escape == '%' || escape == '_')
                || !StandardCharsets.UTF_8.newEncoder().canEncode(pattern)) {
            // A wildcard that is also the escape, or text with no UTF-8 form: the string test decides.
            return null;
        }
        boolean leading = pattern.startsWith("%");
        boolean trailing = pattern.length() > (leading ? 1 : 0) && pattern.endsWith("%")
                && !(escape != null && pattern.length() >= 2 && pattern.charAt(pattern.length() - 2) == escape);
        String middle = pattern.substring(leading ? 1 : 0, pattern.length() - (trailing ? 1 : 0));
        if (escape != null && middle.indexOf(escape) >= 0 || middle.indexOf('%') >= 0 || middle.indexOf('_') >= 0) {
            return null;
        }
        return new Utf8Matcher(middle.getBytes(StandardCharsets.UTF_8), leading, trailing);
    }

    private static Matcher compile(String pattern, Character escape) {
        StringBuilder literal = new StringBuilder();
        StringBuilder regex = new StringBuilder();
        // The literals between unescaped '%'s, for a pattern without '_': matched by searching each in turn.
        List<String> segments = new ArrayList<>();
        StringBuilder segment = new StringBuilder();
        boolean underscore = false;
        boolean simple = true;
        int percents = 0;
        boolean leading = false;
        boolean trailing = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape != null && c == escape && i + 1 < pattern.length()) {
                char next = pattern.charAt(++i);
                literal.append(next);
                segment.append(next);
                regex.append(Pattern.quote(String.valueOf(next)));
            } else if (c == '%') {
                regex.append(".*");
                segments.add(segment.toString());
                segment.setLength(0);
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
                underscore = true;
            } else {
                literal.append(c);
                segment.append(c);
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        segments.add(segment.toString());
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
        if (!underscore) {
            return segmentsMatcher(segments);
        }
        Pattern compiled = Pattern.compile(regex.toString(), Pattern.DOTALL);
        return s -> compiled.matcher(s).matches();
    }

    /**
     * {@code a%b%c}: the first literal at the start, the last at the end, and each one between found after the one
     * before it. Taking the leftmost place of each middle literal never loses a match that a later place would give
     * (what follows it has only more room), so this answers as the regular expression does, without backtracking.
     * {@code segments} has one more entry than the pattern has '%'s; the first and last are empty where the pattern
     * starts or ends with '%'.
     */
    private static Matcher segmentsMatcher(List<String> segments) {
        String[] parts = segments.toArray(String[]::new);
        String first = parts[0];
        String last = parts[parts.length - 1];
        return s -> {
            if (!s.startsWith(first)) {
                return false;
            }
            int from = first.length();
            for (int i = 1; i < parts.length - 1; i++) {
                int at = s.indexOf(parts[i], from);
                if (at < 0) {
                    return false;
                }
                from = at + parts[i].length();
            }
            return s.length() - last.length() >= from && s.endsWith(last);
        };
    }

    @Override
    public ColumnVector eval(ColumnVector[] inputs, int rows) {
        ColumnVector v = input.eval(inputs, rows);
        ColumnVector out = out(rows);
        long[] r = out.longs();
        if (v.isEncoded()) {
            int[] codes = v.codes();
            long[] containing = containing(v.dictionary(), rows);
            if (containing != null) {
                for (int i = 0; i < rows; i++) {
                    int code = codes[i];
                    r[i] = containing[code >>> 6] >>> code & 1;
                }
                copyNulls(v, out, rows);
                return out;
            }
            // Per-code answers only where the dictionary's search is not known (yet): a large dictionary's memo is
            // megabytes, allocated per task and query.
            byte[] memo = memo(v.dictionary());
            for (int i = 0; i < rows; i++) {
                if (v.isNull(i)) {
                    out.setNull(i);
                    continue;
                }
                int code = codes[i];
                if (memo[code] == 0) {
                    memo[code] = (byte) (matchesCode(v.dictionary(), code) ? 1 : 2);
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

    /**
     * The codes of {@code dictionary} whose values match, once this copy has tested rows worth a 32nd of the
     * dictionary (the vectorized search of all its bytes costs about what testing that many codes one by one does)
     * or another copy has searched it already; null until then, and for patterns without a literal to search for.
     */
    private long[] containing(StringDictionary dictionary, int rows) {
        DictionarySearch search = utf8 != null && utf8.search() != null ? utf8.search() : literalSearch;
        if (search == null) {
            return null;
        }
        if (dictionary != countedDictionary) {
            countedDictionary = dictionary;
            rowsOnDictionary = 0;
        }
        rowsOnDictionary += rows;
        if (rowsOnDictionary * 32 < dictionary.size() && !search.known(dictionary)) {
            return null;
        }
        return search.codesContaining(dictionary);
    }

    private static void copyNulls(ColumnVector in, ColumnVector out, int rows) {
        if (in.anyNull()) {
            for (int i = 0; i < rows; i++) {
                if (in.isNull(i)) {
                    out.setNull(i);
                }
            }
        }
    }

    /** Tests dictionary value {@code code}: on its bytes where the pattern allows, without making a String. */
    private boolean matchesCode(StringDictionary dictionary, int code) {
        if (utf8 == null) {
            return matcher.matches(dictionary.value(code));
        }
        MemorySegment offsets = dictionary.offsetsSegment();
        int start = offsets.getAtIndex(ValueLayout.JAVA_INT, code - 1);
        int length = offsets.getAtIndex(ValueLayout.JAVA_INT, code) - start;
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, 2 * scratch.length)];
        }
        MemorySegment.copy(dictionary.bytesSegment(), ValueLayout.JAVA_BYTE, start, scratch, 0, length);
        return utf8.matches(scratch, length);
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
        return new Like(copier.copy(input), pattern, matcher, utf8, literalSearch);
    }

    @Override
    public String toString() {
        return input + " LIKE '" + pattern + "'";
    }
}
