package io.locusdb.core.storage.type;

import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ZonedTimestampsTest {
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    private static long instant(String iso) {
        return ZonedTimestamps.of(OffsetDateTime.parse(iso));
    }

    @Test
    void textWithAnOffsetOrAZoneNameIsThatInstantWhateverTheSessionsZone() {
        long expected = instant("2024-03-01T12:00:00Z");
        for (String text : new String[] {"2024-03-01 13:00:00+01", "2024-03-01 13:00+0100", "2024-03-01T12:00Z",
                "2024-03-01 07:00:00 America/New_York", "2024-03-01 12:00:00 UTC", "2024-03-01 17:30:00+05:30"}) {
            assertThat(ZonedTimestamps.parse(text, NEW_YORK)).as(text).isEqualTo(expected);
        }
    }

    @Test
    void textWithoutAnOffsetIsTheSessionsWallClockTime() {
        assertThat(ZonedTimestamps.parse("2024-07-01 12:00", NEW_YORK)).isEqualTo(instant("2024-07-01T16:00:00Z"));
        assertThat(ZonedTimestamps.parse("2024-01-01", NEW_YORK)).isEqualTo(instant("2024-01-01T05:00:00Z"));
    }

    @Test
    void timesAroundTheChangesOfClockResolveAsPostgreSqlResolvesThem() {
        // Skipped (02:30 on the day clocks go forward): read with the offset before the change.
        assertThat(ZonedTimestamps.parse("2021-03-14 02:30", NEW_YORK)).isEqualTo(instant("2021-03-14T07:30:00Z"));
        // Twice (01:30 on the day clocks go back): the later instant, standard time.
        assertThat(ZonedTimestamps.parse("2021-11-07 01:30", NEW_YORK)).isEqualTo(instant("2021-11-07T06:30:00Z"));
    }

    @Test
    void textOutIsTheSessionsWallClockWithItsOffsetAsPostgreSqlPrintsIt() {
        long t = instant("2024-01-01T12:00:00.25Z");
        assertThat(ZonedTimestamps.format(t, ZoneOffset.UTC)).isEqualTo("2024-01-01 12:00:00.25+00");
        assertThat(ZonedTimestamps.format(t, NEW_YORK)).isEqualTo("2024-01-01 07:00:00.25-05");
        assertThat(ZonedTimestamps.format(t, ZoneId.of("Asia/Kolkata"))).isEqualTo("2024-01-01 17:30:00.25+05:30");
        // New York's local mean time before standard time (1883): an offset with seconds.
        assertThat(ZonedTimestamps.format(instant("1880-01-01T12:00:00Z"), NEW_YORK))
                .isEqualTo("1880-01-01 07:03:58-04:56:02");
    }

    @Test
    void badZonesAndOffsetsAreNamed() {
        assertThatThrownBy(() -> ZonedTimestamps.parse("2024-01-01 10:00 Atlantis/Capital", NEW_YORK))
                .isInstanceOf(ValueFormatException.class).hasMessageContaining("Atlantis/Capital");
        assertThatThrownBy(() -> ZonedTimestamps.parse("2024-01-01 10:00+19", NEW_YORK))
                .isInstanceOf(ValueFormatException.class).hasMessageContaining("offset");
    }

    @Test
    void sessionSettingsReadPosixOffsetsWestOfGreenwichAndNamesInAnyCase() {
        assertThat(TimeZones.setting("UTC+3")).isEqualTo(ZoneOffset.ofHours(-3));
        assertThat(TimeZones.setting("-02:30")).isEqualTo(ZoneOffset.ofHoursMinutes(2, 30));
        assertThat(TimeZones.setting("europe/berlin")).isEqualTo(ZoneId.of("Europe/Berlin"));
        assertThat(TimeZones.setting("GMT")).isEqualTo(ZoneOffset.UTC);
        assertThat(TimeZones.hoursEast(-7)).isEqualTo(ZoneOffset.ofHours(-7));
        assertThatThrownBy(() -> TimeZones.setting("Nowhere")).isInstanceOf(ValueFormatException.class);
    }
}
