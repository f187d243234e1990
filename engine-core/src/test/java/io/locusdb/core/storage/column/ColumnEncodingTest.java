package io.locusdb.core.storage.column;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.table.PartMemory;
import io.locusdb.core.storage.table.PartPlacement;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.natives.memory.NodeMemory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ColumnEncodingTest {
    private final NodeMemory memory = TestStorage.memory();

    @Test
    void packedLayoutUsesCeilLog2OfDistinctPlusOneBitsWithADelimiterPerField() {
        assertThat(PackedLayout.forDistinctValues(0).codeBits()).isEqualTo(1);
        assertThat(PackedLayout.forDistinctValues(1).codeBits()).isEqualTo(1);
        assertThat(PackedLayout.forDistinctValues(3).codeBits()).isEqualTo(2);
        assertThat(PackedLayout.forDistinctValues(4).codeBits()).isEqualTo(3);
        PackedLayout twenty = PackedLayout.forDistinctValues(1_000_000);
        assertThat(twenty.codeBits()).isEqualTo(20);
        assertThat(twenty.codesPerWord()).isEqualTo(3);
        assertThat(Long.bitCount(twenty.delimiterMask())).isEqualTo(3);
    }

    @Test
    void longColumnsRoundTripWithNullsInSortedDictionaryOrder() {
        Random random = new Random(7);
        for (long spread : new long[] {10, 1_000, 1L << 40}) {
            ColumnBuilder builder = ColumnBuilder.forType(ColumnType.BIGINT);
            List<Long> expected = new ArrayList<>();
            for (int i = 0; i < 50_000; i++) {
                Long v = random.nextInt(20) == 0 ? null : (long) (random.nextDouble() * spread) - spread / 2;
                builder.appendBoxed(v);
                expected.add(v);
            }
            try (PartMemory part = new PartMemory(memory, PartPlacement.boundTo(1))) {
                Column column = builder.build(part);
                LongDictionary dictionary = (LongDictionary) column.dictionary();
                assertThat(dictionary.size()).isEqualTo(new TreeSet<>(expected.stream().filter(v -> v != null)
                        .toList()).size());
                for (int id = 2; id <= dictionary.size(); id++) {
                    assertThat(dictionary.value(id)).isGreaterThan(dictionary.value(id - 1));
                }
                for (int r = 0; r < expected.size(); r++) {
                    assertThat(column.boxedValue(r)).isEqualTo(expected.get(r));
                }
                assertThat(column.nullCount()).isEqualTo(expected.stream().filter(v -> v == null).count());
            }
        }
    }

    @Test
    void doubleColumnsTreatNegativeZeroAsZeroAndSortNaNLast() {
        ColumnBuilder builder = ColumnBuilder.forType(ColumnType.DOUBLE);
        for (Double v : new Double[] {2.5, -0.0, 0.0, Double.NaN, -1e300, null, Double.POSITIVE_INFINITY}) {
            builder.appendBoxed(v);
        }
        try (PartMemory part = new PartMemory(memory, PartPlacement.boundTo(0))) {
            Column column = builder.build(part);
            DoubleDictionary d = (DoubleDictionary) column.dictionary();
            assertThat(d.size()).isEqualTo(5);
            assertThat(d.value(1)).isEqualTo(-1e300);
            assertThat(d.value(2)).isEqualTo(0.0);
            assertThat(d.value(5)).isNaN();
            assertThat(column.boxedValue(1)).isEqualTo(0.0);
            assertThat(column.boxedValue(5)).isNull();
        }
    }

    @Test
    void largeStringDictionariesSortedInParallelBucketsAreInByteOrder() {
        // Enough distinct values to take the parallel path: skewed first bytes, the empty string, shared prefixes
        // longer than 8 bytes, and multi-byte UTF-8 (first bytes >= 0x80).
        java.util.SplittableRandom random = new java.util.SplittableRandom(42);
        String[] alphabet = {"a", "b", "z", " ", "é", "\u4e2d", "\uD83D\uDE00", "the same long prefix ", "A"};
        int rows = 150_000;
        String[] values = new String[rows];
        ColumnBuilder builder = ColumnBuilder.forType(ColumnType.VARCHAR);
        for (int r = 0; r < rows; r++) {
            StringBuilder sb = new StringBuilder();
            int parts = r == 0 ? 0 : 1 + random.nextInt(5);
            for (int k = 0; k < parts; k++) {
                sb.append(alphabet[k == 0 && random.nextInt(4) > 0 ? random.nextInt(3) : random.nextInt(alphabet.length)]);
            }
            values[r] = r % 1000 == 7 ? null : sb.append(random.nextInt(50_000)).toString();
            if (r == 0) {
                values[r] = "";
            }
            builder.appendBoxed(values[r]);
        }
        try (PartMemory part = new PartMemory(memory, PartPlacement.boundTo(0))) {
            Column column = builder.build(part);
            StringDictionary d = (StringDictionary) column.dictionary();
            java.util.Set<String> distinct = new java.util.HashSet<>();
            for (String v : values) {
                if (v != null) {
                    distinct.add(v);
                }
            }
            assertThat(d.size()).isEqualTo(distinct.size()).isGreaterThan(1 << 16);
            for (int id = 2; id <= d.size(); id++) {
                byte[] previous = d.value(id - 1).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                byte[] current = d.value(id).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                assertThat(java.util.Arrays.compareUnsigned(previous, current)).as("ids %d, %d", id - 1, id)
                        .isNegative();
            }
            for (int r = 0; r < rows; r += 97) {
                assertThat(column.boxedValue(r)).isEqualTo(values[r]);
            }
        }
    }

    @Test
    void columnsOfManyDistinctStringsAreSortedRowByRowAndRepeatsShareOneId() {
        // Too many distinct values for the hash map: every row is sorted and repeats are found as neighbours. The
        // values share prefixes longer than a radix word, are prefixes of each other, differ only in trailing NULs
        // (equal once zero-padded), and come from two pieces, one with NULLs.
        java.util.SplittableRandom random = new java.util.SplittableRandom(11);
        String[] stems = {"", "a", "a\0", "a\0\0", "abcdefgh", "abcdefgh\0", "abcdefghi", "a shared prefix of 24 by",
                "\u00e9t\u00e9", "z"};
        List<String> expected = new ArrayList<>();
        List<ColumnBuilder> pieces = List.of(ColumnBuilder.forType(ColumnType.VARCHAR),
                ColumnBuilder.forType(ColumnType.VARCHAR));
        for (int p = 0; p < pieces.size(); p++) {
            for (int r = 0; r < 150_000; r++) {
                String stem = stems[random.nextInt(stems.length)];
                String value = p == 1 && r % 101 == 0 ? null
                        : random.nextInt(10) == 0 ? stem : stem + random.nextInt(120_000);
                pieces.get(p).appendBoxed(value);
                expected.add(value);
            }
        }
        try (PartMemory part = new PartMemory(memory, PartPlacement.boundTo(0))) {
            Column column = ColumnBuilder.buildConcatenated(pieces, part);
            StringDictionary d = (StringDictionary) column.dictionary();
            assertThat(d.size()).isEqualTo(new java.util.HashSet<>(expected.stream().filter(v -> v != null)
                    .toList()).size()).isGreaterThan(1 << 17);
            for (int id = 2; id <= d.size(); id++) {
                assertThat(java.util.Arrays.compareUnsigned(utf8(d.value(id - 1)), utf8(d.value(id))))
                        .as("ids %d, %d", id - 1, id).isNegative();
            }
            for (int r = 0; r < expected.size(); r++) {
                assertThat(column.boxedValue(r)).as("row %d", r).isEqualTo(expected.get(r));
            }
            assertThat(column.nullCount()).isEqualTo(expected.stream().filter(v -> v == null).count());
        }
    }

    @Test
    void valuesThatEndWithinTheBytesAlreadySortedOnStayDistinct() {
        // "a", "a\0" and "a" followed by eight NULs share their zero-padded first radix word; the longest sends the
        // three to the next word, where the two short ones have no bytes left: only their lengths differ.
        List<String> expected = new ArrayList<>();
        ColumnBuilder builder = ColumnBuilder.forType(ColumnType.VARCHAR);
        String[] special = {"a\0\0\0\0\0\0\0\0", "a\0", "a"};
        for (int r = 0; r < 120_000; r++) {
            // Each special value once (a run of three rows), in a first-bytes bucket of thousands of rows.
            String value = r < 3 ? special[r] : r % 1000 < 43 ? "a\0" + (char) (r % 1000) + "x" : "v" + r;
            builder.appendBoxed(value);
            expected.add(value);
        }
        try (PartMemory part = new PartMemory(memory, PartPlacement.boundTo(0))) {
            Column column = builder.build(part);
            StringDictionary d = (StringDictionary) column.dictionary();
            assertThat(d.size()).isEqualTo(new HashSet<>(expected).size());
            for (int id = 2; id <= d.size(); id++) {
                assertThat(Arrays.compareUnsigned(utf8(d.value(id - 1)), utf8(d.value(id))))
                        .as("ids %d, %d", id - 1, id).isNegative();
            }
            for (int r = 0; r < expected.size(); r++) {
                assertThat(column.boxedValue(r)).as("row %d", r).isEqualTo(expected.get(r));
            }
        }
    }

    @Test
    void piecesWithFewDistinctValuesMergeTheirValuesAndPiecesWithMoreStageEveryRow() {
        // Piece 0 and 1 keep one-byte codes (overlapping value sets, NULLs); piece 2 outgrows them after 255
        // values; piece 3 holds a value too long for a code. Either mix must read back row for row.
        String longValue = "x".repeat(FewStrings.MAX_VALUE_BYTES + 1);
        List<List<String>> rowsOfPieces = List.of(
                List.of("AIR", "MAIL", "AIR", "\u00e9t\u00e9", "SHIP", "AIR"),
                java.util.Arrays.asList("SHIP", null, "RAIL", "RAIL"),
                java.util.stream.IntStream.range(0, 600).mapToObj(i -> "v" + (i % 300)).toList(),
                List.of("AIR", longValue, "AIR"));
        for (int used : new int[] {2, 4}) {
            List<ColumnBuilder> pieces = new ArrayList<>();
            List<String> expected = new ArrayList<>();
            for (List<String> values : rowsOfPieces.subList(0, used)) {
                ColumnBuilder piece = ColumnBuilder.forType(ColumnType.VARCHAR);
                values.forEach(piece::appendBoxed);
                expected.addAll(values);
                assertThat(((StringColumnBuilder) piece).valueAt(values.size() - 1)).isEqualTo(values.getLast());
                pieces.add(piece);
            }
            try (PartMemory part = new PartMemory(memory, PartPlacement.boundTo(0))) {
                Column column = ColumnBuilder.buildConcatenated(pieces, part);
                StringDictionary d = (StringDictionary) column.dictionary();
                assertThat(d.size()).isEqualTo(new TreeSet<>(expected.stream().filter(v -> v != null).toList())
                        .size());
                for (int id = 2; id <= d.size(); id++) {
                    assertThat(java.util.Arrays.compareUnsigned(utf8(d.value(id - 1)), utf8(d.value(id))))
                            .isNegative();
                }
                for (int r = 0; r < expected.size(); r++) {
                    assertThat(column.boxedValue(r)).as("row %d", r).isEqualTo(expected.get(r));
                }
            }
        }
    }

    @Test
    void allTwoHundredFiftyFiveCodesOfAPieceReadBack() {
        // Codes past 127 must not turn negative on their way through the byte-sized caches.
        ColumnBuilder builder = ColumnBuilder.forType(ColumnType.VARCHAR);
        List<String> expected = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int v = 0; v < FewStrings.MAX_DISTINCT; v++) {
                String value = "value " + v;
                builder.appendBoxed(value);
                expected.add(value);
            }
        }
        try (PartMemory part = new PartMemory(memory, PartPlacement.boundTo(0))) {
            Column column = builder.build(part);
            assertThat(column.dictionary().size()).isEqualTo(FewStrings.MAX_DISTINCT);
            for (int r = 0; r < expected.size(); r++) {
                assertThat(column.boxedValue(r)).as("row %d", r).isEqualTo(expected.get(r));
            }
        }
    }

    @Test
    void aValueAppendedAsStringOrAsBytesIsOneValue() {
        StringColumnBuilder builder = (StringColumnBuilder) ColumnBuilder.forType(ColumnType.VARCHAR);
        for (String v : new String[] {"N", "DELIVER IN PERSON", "a value of exactly 24 by"}) {
            builder.append(v);
            builder.appendUtf8(java.lang.foreign.MemorySegment.ofArray(utf8("[" + v + "]")), 1, utf8(v).length);
        }
        try (PartMemory part = new PartMemory(memory, PartPlacement.boundTo(0))) {
            Column column = builder.build(part);
            assertThat(column.dictionary().size()).isEqualTo(3);
            assertThat(column.boxedValue(3)).isEqualTo("DELIVER IN PERSON");
        }
    }

    private static byte[] utf8(String value) {
        return value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void stringDictionariesAreInCodePointOrderAndFindRanges() {
        ColumnBuilder builder = ColumnBuilder.forType(ColumnType.VARCHAR);
        String[] values = {"pear", "apple", "\uD83D\uDE00 emoji", "\uFFFD replacement", "apple", null, "", "Zebra"};
        for (String v : values) {
            builder.appendBoxed(v);
        }
        try (PartMemory part = new PartMemory(memory, PartPlacement.boundTo(0))) {
            Column column = builder.build(part);
            StringDictionary d = (StringDictionary) column.dictionary();
            assertThat(d.size()).isEqualTo(6);
            assertThat(d.value(1)).isEmpty();
            assertThat(d.value(2)).isEqualTo("Zebra");
            // U+FFFD sorts before U+1F600 in code point order, although not in UTF-16 order.
            assertThat(d.value(5)).startsWith("\uFFFD");
            assertThat(d.value(6)).startsWith("\uD83D");
            assertThat(d.idOf("pear")).isEqualTo(4);
            assertThat(d.idOf("peach")).isEqualTo(-1);
            assertThat(d.ceilingId("b")).isEqualTo(4);
            assertThat(d.floorId("b")).isEqualTo(3);
            for (int r = 0; r < values.length; r++) {
                assertThat(column.boxedValue(r)).isEqualTo(values[r]);
            }
        }
    }

    @Test
    void shortAndLongStringsAcrossStagingChunksKeepTheirIdentity() {
        ColumnBuilder builder = ColumnBuilder.forType(ColumnType.VARCHAR);
        List<String> expected = new ArrayList<>();
        Random random = new Random(3);
        for (int i = 0; i < 400_000; i++) {
            int length = random.nextInt(12);
            String v = Integer.toString(random.nextInt(50_000), 36);
            v = (v + "abcdefghijkl").substring(0, Math.max(0, Math.min(length, v.length() + 12)));
            builder.appendBoxed(v);
            expected.add(v);
        }
        try (PartMemory part = new PartMemory(memory, PartPlacement.boundTo(0))) {
            Column column = builder.build(part);
            assertThat(column.dictionary().size()).isEqualTo(new TreeSet<>(expected).size());
            for (int r = 0; r < expected.size(); r += 7) {
                assertThat(column.boxedValue(r)).isEqualTo(expected.get(r));
            }
        }
    }

    @Test
    void anEmptyStringCanBeTheFirstValue() {
        ColumnBuilder builder = ColumnBuilder.forType(ColumnType.VARCHAR);
        builder.appendBoxed("");
        builder.appendBoxed("x");
        try (PartMemory part = new PartMemory(memory, PartPlacement.boundTo(0))) {
            Column column = builder.build(part);
            assertThat(column.boxedValue(0)).isEqualTo("");
            assertThat(column.boxedValue(1)).isEqualTo("x");
        }
    }

    @Test
    void refusesValuesOfTheWrongType() {
        ColumnBuilder builder = ColumnBuilder.forType(ColumnType.INTEGER);
        assertThatThrownBy(() -> builder.appendBoxed("seven")).hasMessageContaining("cannot hold String");
    }
}
