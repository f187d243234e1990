package io.locusdb.server.slt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SltScriptTest {
    private static final String SCRIPT = """
            hash-threshold 8

            # a comment
            statement ok
            CREATE TABLE t1(a INTEGER, b INTEGER)

            skipif locusdb
            statement ok
            CREATE INDEX i ON t1(a)

            onlyif mysql
            halt

            statement error
            SELECT nope FROM t1

            query IT rowsort label-1
            SELECT a,
                   b FROM t1
            ----
            1
            x
            2
            (empty)

            query I nosort
            SELECT a FROM t1
            ----
            30 values hashing to 3c13dee48d9356ae19af2515e05e6b54

            onlyif locusdb
            query R valuesort
            SELECT 1.5
            ----
            1.500
            """;

    @Test
    void recordsForOtherEnginesAreLeftOutAndTheRestKeepTheirParts() {
        List<SltRecord> records = SltScript.parse("t.test", SCRIPT);

        assertThat(records).hasSize(6);
        assertThat(records.get(0)).isEqualTo(new SltRecord.HashThreshold(1, 8));
        assertThat(records.get(1)).isEqualTo(new SltRecord.Statement(4, "CREATE TABLE t1(a INTEGER, b INTEGER)",
                false));
        assertThat(((SltRecord.Statement) records.get(2)).expectError()).isTrue();
        SltRecord.Query rows = (SltRecord.Query) records.get(3);
        assertThat(rows.sql()).isEqualTo("SELECT a,\n       b FROM t1");
        assertThat(rows.types()).isEqualTo("IT");
        assertThat(rows.sort()).isEqualTo(SltRecord.SortMode.ROWSORT);
        assertThat(rows.label()).isEqualTo("label-1");
        assertThat(rows.expected()).containsExactly("1", "x", "2", "(empty)");
        SltRecord.Query hashed = (SltRecord.Query) records.get(4);
        assertThat(hashed.expectedCount()).isEqualTo(30);
        assertThat(hashed.hash()).isEqualTo("3c13dee48d9356ae19af2515e05e6b54");
        assertThat(((SltRecord.Query) records.get(5)).sort()).isEqualTo(SltRecord.SortMode.VALUESORT);
    }

    @Test
    void anUnknownRecordIsAnErrorNamingItsLine() {
        assertThatThrownBy(() -> SltScript.parse("bad.test", "statement ok\nSELECT 1\n\nfrobnicate\n"))
                .hasMessageContaining("bad.test:4");
    }

    @Test
    void valuesAreFormattedAsSqliteRunnerPrintsThem() {
        assertThat(SltRunner.format(null, 'I')).isEqualTo("NULL");
        assertThat(SltRunner.format(7.9, 'I')).isEqualTo("7");
        assertThat(SltRunner.format(-7.9, 'I')).isEqualTo("-7");
        assertThat(SltRunner.format("12abc", 'I')).isEqualTo("12");
        assertThat(SltRunner.format(2, 'R')).isEqualTo("2.000");
        assertThat(SltRunner.format("", 'T')).isEqualTo("(empty)");
        assertThat(SltRunner.format("a\tb", 'T')).isEqualTo("a@b");
    }

    @Test
    void theHashIsOfTheValuesEachFollowedByANewline() {
        // md5 of "1\n2\n"
        assertThat(SltRunner.md5(List.of("1", "2"))).isEqualTo("6ddb4095eb719e2a9f0a3f95677d24e0");
    }
}
