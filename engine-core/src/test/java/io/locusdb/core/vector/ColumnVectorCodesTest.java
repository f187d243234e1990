package io.locusdb.core.vector;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.column.TestDictionaries;
import io.locusdb.core.storage.type.ColumnType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A vector of one dictionary's codes copies codes of that dictionary as codes, and turns plain, keeping every value,
 * when it takes rows of another dictionary or plain strings: rows of two table parts in one buffer read right.
 */
class ColumnVectorCodesTest {
    private static StringDictionary dictionary(List<String> values) {
        return TestDictionaries.of(values);
    }

    /** Codes 1..n of {@code dictionary} (code 0 is no value), the second row NULL. */
    private static ColumnVector codes(StringDictionary dictionary, int... codes) {
        ColumnVector v = ColumnVector.encoded(ColumnType.VARCHAR, dictionary, codes.length);
        for (int i = 0; i < codes.length; i++) {
            v.setCode(i, codes[i]);
        }
        v.setNull(1);
        v.setSize(codes.length);
        return v;
    }

    private static List<String> values(ColumnVector v, int rows) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            out.add(v.string(i));
        }
        return out;
    }

    @Test
    void codesOfOneDictionaryStayCodes() {
        StringDictionary parts = dictionary(List.of("AIR", "MAIL", "SHIP"));
        ColumnVector target = ColumnVector.encoded(ColumnType.VARCHAR, parts, 2);
        target.ensureCapacity(3);
        target.copyRows(codes(parts, 3, 0, 1), 0, 0, 3);
        target.setSize(3);
        assertThat(target.isEncoded()).isTrue();
        assertThat(values(target, 3)).containsExactly("SHIP", null, "AIR");
    }

    @Test
    void rowsOfAnotherDictionaryOrPlainStringsTurnTheVectorPlainAndKeepItsRows() {
        StringDictionary first = dictionary(List.of("AIR", "MAIL", "SHIP"));
        StringDictionary second = dictionary(List.of("FOB", "RAIL"));
        ColumnVector target = ColumnVector.encoded(ColumnType.VARCHAR, first, 8);
        target.copyRows(codes(first, 2, 0, 3), 0, 0, 3);
        target.setSize(3);
        target.copyRows(codes(second, 1, 0, 2), 0, 3, 3);
        target.setSize(6);
        assertThat(target.isEncoded()).isFalse();
        ColumnVector plain = new ColumnVector(ColumnType.VARCHAR, 1);
        plain.setString(0, "TRUCK");
        plain.setSize(1);
        target.copyRow(plain, 0, 6);
        assertThat(values(target, 7)).containsExactly("MAIL", null, "SHIP", "FOB", null, "RAIL", "TRUCK");

        ColumnVector rowByRow = ColumnVector.encoded(ColumnType.VARCHAR, first, 4);
        rowByRow.copyRow(codes(first, 1, 0), 0, 0);
        rowByRow.copyRow(codes(second, 2, 0), 0, 1);
        assertThat(values(rowByRow, 2)).containsExactly("AIR", "RAIL");
    }
}
