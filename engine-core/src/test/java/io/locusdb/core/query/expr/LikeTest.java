package io.locusdb.core.query.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.column.TestDictionaries;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.vector.ColumnVector;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * LIKE on dictionary-encoded strings (each code tested once) and on plain strings gives the answer of the pattern
 * read as a regular expression, for the shapes tested directly (prefix, suffix, infix, exact) and the others.
 */
class LikeTest {
    private static final List<String> VALUES = List.of("", "green", "dark green tea", "greenish", "evergreen",
            "grün", "über grün", "grünlich", "GREEN", "gree", "100%", "a_b", "ab", "x%y", "日本語の緑", "緑");

    private static StringDictionary dictionary(List<String> values) {
        return TestDictionaries.of(values);
    }

    /** The pattern as a regular expression, escape '\'. */
    private static boolean expected(String value, String pattern) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else {
                regex.append(c == '%' ? ".*" : c == '_' ? "." : Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(value).matches();
    }

    @Test
    void encodedAndPlainValuesMatchAsTheRegularExpressionDoes() {
        StringDictionary dictionary = dictionary(VALUES);
        int rows = VALUES.size() + 1;
        ColumnVector encoded = ColumnVector.encoded(ColumnType.varchar(40), dictionary, rows);
        ColumnVector plain = new ColumnVector(ColumnType.varchar(40), rows);
        for (int i = 0; i < VALUES.size(); i++) {
            encoded.setCode(i, i + 1);
            plain.setString(i, VALUES.get(i));
        }
        encoded.setNull(VALUES.size());
        plain.setNull(VALUES.size());
        encoded.setSize(rows);
        plain.setSize(rows);
        List<String> patterns = List.of("green", "green%", "%green", "%green%", "%grün%", "grün%", "%grün",
                "%緑", "%本語%", "%", "%%", "", "gree_", "%ee%n%", "100\\%", "%\\%%", "a\\_b", "a_b", "%\\_%",
                "%en", "g%n");
        for (String pattern : patterns) {
            List<Boolean> fromCodes = new ArrayList<>();
            List<Boolean> fromStrings = new ArrayList<>();
            List<Boolean> wanted = new ArrayList<>();
            ColumnVector a = new Like(new InputRef(0, ColumnType.varchar(40), "s"), pattern, '\\')
                    .eval(new ColumnVector[] {encoded}, rows);
            ColumnVector b = new Like(new InputRef(0, ColumnType.varchar(40), "s"), pattern, '\\')
                    .eval(new ColumnVector[] {plain}, rows);
            for (int i = 0; i < VALUES.size(); i++) {
                fromCodes.add(a.longs()[i] == 1);
                fromStrings.add(b.longs()[i] == 1);
                wanted.add(expected(VALUES.get(i), pattern));
            }
            assertThat(a.isNull(VALUES.size())).isTrue();
            assertThat(b.isNull(VALUES.size())).isTrue();
            assertThat(fromCodes).as("encoded, pattern " + pattern).isEqualTo(wanted);
            assertThat(fromStrings).as("plain, pattern " + pattern).isEqualTo(wanted);
        }
    }

    @Test
    void patternsOfSeveralLiteralsBetweenPercentsMatchAsTheRegularExpressionDoes() {
        // Literals that overlap, repeat and touch: where a leftmost search of each in turn could go wrong.
        Random random = new Random(20_261_128L);
        String alphabet = "abc%";
        for (int p = 0; p < 400; p++) {
            StringBuilder pattern = new StringBuilder();
            for (int i = 0, n = 1 + random.nextInt(7); i < n; i++) {
                pattern.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            int rows = 60;
            ColumnVector plain = new ColumnVector(ColumnType.varchar(20), rows);
            List<String> values = new ArrayList<>();
            for (int r = 0; r < rows; r++) {
                StringBuilder value = new StringBuilder();
                for (int i = 0, n = random.nextInt(9); i < n; i++) {
                    value.append("abc".charAt(random.nextInt(3)));
                }
                values.add(value.toString());
                plain.setString(r, value.toString());
            }
            plain.setSize(rows);
            ColumnVector out = new Like(new InputRef(0, ColumnType.varchar(20), "s"), pattern.toString(), '\\')
                    .eval(new ColumnVector[] {plain}, rows);
            for (int r = 0; r < rows; r++) {
                assertThat(out.longs()[r] == 1).as("'" + values.get(r) + "' LIKE '" + pattern + "'")
                        .isEqualTo(expected(values.get(r), pattern.toString()));
            }
        }
    }

    @Test
    void aLargeDictionaryGivesTheSameAnswersTestedCodeByCodeAndSearchedWhole() {
        // Short values over a small alphabet: many matches, and many that would cross from one value into the next.
        Random random = new Random(3);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) {
            StringBuilder value = new StringBuilder();
            for (int n = random.nextInt(6); n > 0; n--) {
                value.append("abü".charAt(random.nextInt(3)));
            }
            values.add(value.toString());
        }
        StringDictionary dictionary = dictionary(values);
        // Infix patterns search for their literal; the others for their longest literal, each value found then
        // tested whole (several literals, prefixes, suffixes, '_' next to a multi-byte character, escapes).
        for (String pattern : List.of("%ab%", "%bü%", "%üa%", "%aaa%", "%b%", "%ab%ba%", "%a%bü%", "ab%", "%bü",
                "ab%ba", "a_b%", "%ab_ü%", "%ü_a%", "_ab", "%aa%a", "ba\\_%", "%ab\\%%")) {
            Like like = new Like(new InputRef(0, ColumnType.varchar(40), "s"), pattern, '\\');
            // A few rows first (tested code by code), then all of them (the dictionary searched whole).
            for (int[] range : new int[][] {{0, 10}, {0, values.size()}}) {
                int rows = range[1] - range[0];
                ColumnVector encoded = ColumnVector.encoded(ColumnType.varchar(40), dictionary, rows);
                for (int i = 0; i < rows; i++) {
                    encoded.setCode(i, range[0] + i + 1);
                }
                encoded.setSize(rows);
                ColumnVector result = like.eval(new ColumnVector[] {encoded}, rows);
                for (int i = 0; i < rows; i++) {
                    String value = values.get(range[0] + i);
                    assertThat(result.longs()[i] == 1).as("'%s' LIKE '%s'", value, pattern)
                            .isEqualTo(expected(value, pattern));
                }
            }
        }
    }

    @Test
    void aWildcardThatIsAlsoTheEscapeIsAnEscape() {
        List<String> values = List.of("a", "ba", "%a", "a%", "%a%", "xa%y");
        StringDictionary dictionary = dictionary(values);
        ColumnVector encoded = ColumnVector.encoded(ColumnType.varchar(10), dictionary, values.size());
        for (int i = 0; i < values.size(); i++) {
            encoded.setCode(i, i + 1);
        }
        encoded.setSize(values.size());
        // With ESCAPE '%', "%a" is the literal "a" and "%a%%" is "a%": the byte test must not read them as wildcards.
        assertThat(matches(new Like(new InputRef(0, ColumnType.varchar(10), "s"), "%a", '%'), encoded))
                .containsExactly(true, false, false, false, false, false);
        assertThat(matches(new Like(new InputRef(0, ColumnType.varchar(10), "s"), "%a%%", '%'), encoded))
                .containsExactly(false, false, false, true, false, false);
    }

    private static List<Boolean> matches(Like like, ColumnVector input) {
        ColumnVector result = like.eval(new ColumnVector[] {input}, input.size());
        List<Boolean> out = new ArrayList<>();
        for (int i = 0; i < input.size(); i++) {
            out.add(result.longs()[i] == 1);
        }
        return out;
    }
}
