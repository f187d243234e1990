package io.locusdb.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AtTimeZoneTest {
    @Test
    void theOperandIsThePrimaryBeforeAtAsInPostgreSqlsGrammar() {
        assertThat(AtTimeZone.rewrite("SELECT a.t AT TIME ZONE 'UTC' FROM a"))
                .isEqualTo("SELECT AT_TIME_ZONE(a.t, 'UTC') FROM a");
        assertThat(AtTimeZone.rewrite("SELECT x + t at time zone z FROM a"))
                .isEqualTo("SELECT x + AT_TIME_ZONE(t, z) FROM a");
        assertThat(AtTimeZone.rewrite("SELECT now() AT TIME ZONE ?, (a + b) AT TIME ZONE 'UTC'"))
                .isEqualTo("SELECT AT_TIME_ZONE(now(), ?), AT_TIME_ZONE((a + b), 'UTC')");
        assertThat(AtTimeZone.rewrite("SELECT TIMESTAMP '2024-01-01 10:00' AT TIME ZONE 'Europe/Berlin'"))
                .isEqualTo("SELECT AT_TIME_ZONE(TIMESTAMP '2024-01-01 10:00', 'Europe/Berlin')");
        assertThat(AtTimeZone.rewrite("SELECT \"Event Time\"::timestamp AT TIME ZONE 'UTC'"))
                .isEqualTo("SELECT AT_TIME_ZONE(\"Event Time\"::timestamp, 'UTC')");
    }

    @Test
    void chainsNestAndTextInsideStringsIsLeftAlone() {
        assertThat(AtTimeZone.rewrite("SELECT t AT TIME ZONE 'UTC' AT TIME ZONE 'Asia/Tokyo'"))
                .isEqualTo("SELECT AT_TIME_ZONE(AT_TIME_ZONE(t, 'UTC'), 'Asia/Tokyo')");
        assertThat(AtTimeZone.rewrite("SELECT 'meet at time zone borders' FROM a"))
                .isEqualTo("SELECT 'meet at time zone borders' FROM a");
        assertThat(AtTimeZone.rewrite("SET TIME ZONE 'UTC'")).isEqualTo("SET TIME ZONE 'UTC'");
    }
}
