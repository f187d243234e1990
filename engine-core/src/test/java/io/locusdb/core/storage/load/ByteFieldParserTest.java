package io.locusdb.core.storage.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.storage.type.ValueFormatException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class ByteFieldParserTest {
    @Test
    void epochDaysAreThoseOfLocalDateForEveryDayOfFourDigitYears() {
        for (LocalDate d = LocalDate.of(0, 1, 1); d.getYear() <= 9999; d = d.plusDays(1)) {
            if (ByteFieldParser.epochDay(d.getYear(), d.getMonthValue(), d.getDayOfMonth()) != d.toEpochDay()) {
                assertThat(ByteFieldParser.epochDay(d.getYear(), d.getMonthValue(), d.getDayOfMonth()))
                        .as("%s", d).isEqualTo(d.toEpochDay());
            }
        }
    }

    @Test
    void datesThatDoNotExistAreRejected() {
        assertThat(parseDate("2000-02-29")).isEqualTo(LocalDate.of(2000, 2, 29).toEpochDay());
        for (String bad : new String[] {"1900-02-29", "1999-04-31", "1999-13-01", "1999-00-10", "1999-01-00",
                "1999-0:-01", "19/9-01-01", "1999-01-0 ", "1999/01/01"}) {
            assertThatThrownBy(() -> parseDate(bad)).isInstanceOf(ValueFormatException.class)
                    .hasMessageContaining("'" + bad + "' is not a DATE");
        }
    }

    @Test
    void stringChecksFindNulAndLengthAnywhereInLongValues() {
        MemorySegment ok = utf8("twenty-one characters");
        assertThat(ByteFieldParser.checkString(ok, 0, ok.byteSize(),
                io.locusdb.core.storage.type.ColumnType.varchar(21))).isEqualTo(ok.byteSize());
        assertThatThrownBy(() -> ByteFieldParser.checkString(ok, 0, ok.byteSize(),
                io.locusdb.core.storage.type.ColumnType.varchar(20))).hasMessageContaining("longer than");
        MemorySegment nul = utf8("sixteen bytes..\0and more");
        assertThatThrownBy(() -> ByteFieldParser.checkString(nul, 0, nul.byteSize(),
                io.locusdb.core.storage.type.ColumnType.VARCHAR)).hasMessageContaining("NUL character (at byte 15)"
                .replace(" (at", " in text value (at"));
        MemorySegment accents = utf8("caf\u00e9 cr\u00e8me br\u00fbl\u00e9e");
        assertThat(ByteFieldParser.checkString(accents, 0, accents.byteSize(),
                io.locusdb.core.storage.type.ColumnType.varchar(17))).isEqualTo(accents.byteSize());
    }

    @Test
    void numbersReadEightBytesAtATimeAgreeWithTheGeneralParser() {
        java.util.Random random = new java.util.Random(5);
        String alphabet = "0123456789000.-+ x";
        io.locusdb.core.storage.type.ColumnType[] types = {io.locusdb.core.storage.type.ColumnType.BIGINT,
                io.locusdb.core.storage.type.ColumnType.INTEGER,
                io.locusdb.core.storage.type.ColumnType.decimal(15, 2),
                io.locusdb.core.storage.type.ColumnType.decimal(4, 2),
                io.locusdb.core.storage.type.ColumnType.decimal(2, 2),
                io.locusdb.core.storage.type.ColumnType.decimal(18, 0)};
        for (int trial = 0; trial < 200_000; trial++) {
            StringBuilder field = new StringBuilder();
            int length = 1 + random.nextInt(10);
            for (int i = 0; i < length; i++) {
                // Mostly digits, so that most fields are valid numbers of every length.
                field.append(random.nextInt(4) == 0 ? alphabet.charAt(random.nextInt(alphabet.length()))
                        : (char) ('0' + random.nextInt(10)));
            }
            // The field sits in a line with bytes after it, as in a file: an 8-byte read sees them too.
            String line = "|" + field + "|9.99|x";
            MemorySegment s = utf8(line);
            io.locusdb.core.storage.type.ColumnType type = types[random.nextInt(types.length)];
            boolean decimal = type.kind() == io.locusdb.core.storage.type.TypeKind.DECIMAL;
            Object expected = outcome(() -> decimal
                    ? io.locusdb.core.storage.type.ValueParser.parseDecimal(field, type)
                    : io.locusdb.core.storage.type.ValueParser.parseInteger(field, type));
            Object actual = outcome(() -> decimal ? ByteFieldParser.parseDecimal(s, 1, 1 + length, type)
                    : ByteFieldParser.parseInteger(s, 1, 1 + length, type));
            assertThat(actual).as("'%s' as %s", field, type).isEqualTo(expected);
        }
    }

    private static Object outcome(java.util.function.LongSupplier parse) {
        try {
            return parse.getAsLong();
        } catch (ValueFormatException e) {
            return e.getMessage();
        }
    }

    private static long parseDate(String text) {
        MemorySegment s = utf8(text);
        return ByteFieldParser.parseDate(s, 0, s.byteSize());
    }

    private static MemorySegment utf8(String text) {
        return MemorySegment.ofArray(text.getBytes(StandardCharsets.UTF_8));
    }
}
