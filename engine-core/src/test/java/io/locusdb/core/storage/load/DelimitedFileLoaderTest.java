package io.locusdb.core.storage.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.type.ColumnType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DelimitedFileLoaderTest {
    private static final Schema SCHEMA = Schema.of(
            ColumnDef.notNull("id", ColumnType.BIGINT),
            ColumnDef.of("price", ColumnType.decimal(15, 2)),
            ColumnDef.of("shipped", ColumnType.DATE),
            ColumnDef.of("note", ColumnType.varchar(10)));

    @TempDir
    Path dir;

    private Catalog catalog;
    private DelimitedFileLoader loader;

    @BeforeEach
    void setUp() {
        catalog = TestStorage.catalog();
        loader = new DelimitedFileLoader(catalog.memory(), 2);
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }

    private Table load(Path file, PartitionSpec spec) {
        return loader.load(file, "t", SCHEMA, spec, DelimitedFormat.forFile(file.getFileName().toString()),
                new InitialPlacement.RoundRobin(), LoadProgress.NONE);
    }

    @Test
    void loadsTblAndCsvIntoPartitionedTables() throws IOException {
        Path tbl = write("t.tbl", "1|10.50|1998-12-01|hello|\n2|0.01|1992-01-02||\n3||1995-06-17|a|b|\n"
                .replace("a|b|", "\"a\"|"));
        Table table = load(tbl, new PartitionSpec.Hash("id", 2));
        assertThat(table.version().rows()).isEqualTo(3);
        assertThat(table.version().parts()).hasSize(2);

        Path csv = write("t.csv", "id,price,shipped,note\n1,10.5,1998-12-01,\"a, \"\"q\"\"\"\n2,,,\n");
        Table fromCsv = load(csv, new PartitionSpec.Range("id", 2));
        var part0 = fromCsv.version().parts().get(0);
        var part1 = fromCsv.version().parts().get(1);
        assertThat(part0.rows() + part1.rows()).isEqualTo(2);
        var first = part0.rows() == 1 ? part0 : part1;
        assertThat(first.column(1).boxedValue(0)).isEqualTo(1050L);
        assertThat(first.column(2).boxedValue(0)).isEqualTo(LocalDate.of(1998, 12, 1).toEpochDay());
        assertThat(first.column(3).boxedValue(0)).isEqualTo("a, \"q\"");
    }

    @Test
    void largeFilesAreParsedInParallelAndReportTheFirstBadLineInFileOrder() throws IOException {
        StringBuilder text = new StringBuilder();
        int lines = 100_000;
        for (int i = 1; i <= lines; i++) {
            String price = i == 75_000 ? "1x.00" : i == 20_000 ? "2y.00" : (i % 1000) + ".25";
            text.append(i).append('|').append(price).append("|1995-03-0").append(1 + i % 9).append("|n")
                    .append(i % 97).append("|\n");
        }
        Path bad = write("big.tbl", text.toString());
        assertThat(Files.size(bad)).isGreaterThan(2L << 20);
        assertFailsCleanly(bad, "big.tbl:20000, column 2 (price)", "'2y.00' is not a DECIMAL(15,2)");

        Path good = write("good.tbl", text.toString().replace("1x.00", "1.00").replace("2y.00", "2.00"));
        Table table = load(good, new PartitionSpec.Hash("id", 3));
        assertThat(table.version().rows()).isEqualTo(lines);
        long sum = 0;
        for (var part : table.version().parts()) {
            for (long r = 0; r < part.rows(); r++) {
                sum += (Long) part.column(0).boxedValue(r);
            }
        }
        assertThat(sum).isEqualTo((long) lines * (lines + 1) / 2);
    }

    @Test
    void crlfLineEndsEmptyLinesAndAMissingLastNewlineReadLikePlainLines() throws IOException {
        Path file = write("t.tbl", "1|10.50|1998-12-01|hello|\r\n\n\r\n2|0.01|1992-01-02|a longer|\n3|7|1995-06-17||");
        Table table = load(file, PartitionSpec.none());
        var part = table.version().parts().getFirst();
        assertThat(table.version().rows()).isEqualTo(3);
        assertThat(part.column(3).boxedValue(0)).isEqualTo("hello");
        assertThat(part.column(3).boxedValue(1)).isEqualTo("a longer");
        assertThat(part.column(3).boxedValue(2)).isNull();
        assertThat(part.column(1).boxedValue(2)).isEqualTo(700L);
        table.version().parts().forEach(io.locusdb.core.storage.table.TablePart::release);
    }

    @Test
    void aCsvWhoseLastLineEndsInAnEmptyFieldAndNoNewlineReadsThatFieldAsNull() throws IOException {
        Table table = load(write("t.csv", "id,price,shipped,note\n1,2,1998-01-01,x\n2,3,1998-01-02,"),
                PartitionSpec.none());
        var part = table.version().parts().getFirst();
        assertThat(table.version().rows()).isEqualTo(2);
        assertThat(part.column(3).boxedValue(0)).isEqualTo("x");
        assertThat(part.column(3).boxedValue(1)).isNull();
        table.version().parts().forEach(io.locusdb.core.storage.table.TablePart::release);
    }

    @Test
    void truncatedFileIsAClearError() throws IOException {
        Path file = write("t.tbl", "1|10.50|1998-12-01|hello|\n2|0.01|19");
        assertFailsCleanly(file, "t.tbl:2", "truncated");
        Path quoted = write("q.csv", "id,price,shipped,note\n1,2,1998-01-01,\"never closed\n");
        assertFailsCleanly(quoted, "q.csv:2", "unterminated quoted field");
    }

    @Test
    void wrongColumnCountIsAClearError() throws IOException {
        assertFailsCleanly(write("t.csv", "id,price,shipped,note\n1,2,1998-01-01,x,extra\n"), "t.csv:2",
                "expected 4 fields, found 5");
    }

    @Test
    void badNumberIsAClearError() throws IOException {
        assertFailsCleanly(write("t.csv", "id,price,shipped,note\n1,2,1998-01-01,x\n2,12.x5,1998-01-01,y\n"),
                "t.csv:3, column 2 (price)", "'12.x5' is not a DECIMAL(15,2)");
        assertFailsCleanly(write("u.csv", "id,price,shipped,note\n99999999999999999999,1,1998-01-01,x\n"),
                "u.csv:2, column 1 (id)", "out of range");
        assertFailsCleanly(write("v.csv", "id,price,shipped,note\n1,1.234,1998-01-01,x\n"),
                "v.csv:2, column 2 (price)", "more than 2 fractional digits");
    }

    @Test
    void badDateIsAClearError() throws IOException {
        assertFailsCleanly(write("t.csv", "id,price,shipped,note\n1,2,1998-02-30,x\n"),
                "t.csv:2, column 3 (shipped)", "'1998-02-30' is not a DATE");
    }

    @Test
    void overLongStringIsAClearError() throws IOException {
        assertFailsCleanly(write("t.csv", "id,price,shipped,note\n1,2,1998-01-01,abcdefghijk\n"),
                "t.csv:2, column 4 (note)", "longer than VARCHAR(10)");
    }

    @Test
    void nulBytesAreAClearError() throws IOException {
        assertFailsCleanly(write("t.csv", "id,price,shipped,note\n1,2,1998-01-01,ab\0c\n"),
                "t.csv:2, column 4 (note)", "NUL character");
        // The NUL shares an 8-byte word with the line before it, which the parser reads as one.
        assertFailsCleanly(write("n.tbl", "1|2|1998-01-01|a|\n2|||\0|\n"), "n.tbl:2, column 4 (note)",
                "NUL character");
    }

    @Test
    void nullInNotNullColumnAndInvalidUtf8AreClearErrors() throws IOException {
        assertFailsCleanly(write("t.csv", "id,price,shipped,note\n,2,1998-01-01,x\n"), "t.csv:2, column 1 (id)",
                "NOT NULL");
        Path bad = dir.resolve("bad.csv");
        Files.write(bad, new byte[] {'i', 'd', ',', 'p', ',', 's', ',', 'n', '\n', '1', ',', '2', ',', ',',
                (byte) 0xC3, (byte) 0x28, '\n'});
        assertFailsCleanly(bad, "bad.csv", "not valid UTF-8");
    }

    private void assertFailsCleanly(Path file, String where, String reason) {
        long liveBefore = catalog.memory().usage().liveSegments();
        for (PartitionSpec spec : new PartitionSpec[] {PartitionSpec.none(), new PartitionSpec.Hash("id", 2),
                new PartitionSpec.Range("id", 2)}) {
            assertThatThrownBy(() -> catalog.register(load(file, spec)))
                    .isInstanceOf(LoadException.class)
                    .hasMessageContaining(where)
                    .hasMessageContaining(reason);
        }
        assertThat(catalog.find("t")).isEmpty();
        assertThat(catalog.memory().usage().liveSegments()).isEqualTo(liveBefore);
    }
}
