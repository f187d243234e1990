package io.locusdb.trino;

import static org.assertj.core.api.Assertions.assertThat;

import io.locusdb.protocol.DecodedBatch;
import io.locusdb.protocol.WireType;
import io.trino.spi.block.Block;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.TimeZoneKey;
import io.trino.spi.type.TimestampWithTimeZoneType;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class LocusTypesTest {
    @Test
    void instantsBecomeTrinosTimestampWithTimeZoneToTheMicrosecondAtUtc() {
        long micros = WireType.micros(OffsetDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000, ZoneOffset.UTC));
        long later = WireType.micros(OffsetDateTime.of(2024, 3, 1, 12, 45, 7, 250_001_000, ZoneOffset.UTC));
        DecodedBatch.Column column = new DecodedBatch.Column(WireType.of(WireType.TIMESTAMP_TZ),
                new boolean[] {false, true, false}, new long[] {micros, 0, later}, null, null);
        TimestampWithTimeZoneType type = TimestampWithTimeZoneType.TIMESTAMP_TZ_MICROS;
        Block block = LocusTypes.block(type, column, 3);
        assertThat(type.getObject(block, 0)).isEqualTo(LongTimestampWithTimeZone.fromEpochMillisAndFraction(-1,
                999_000_000, TimeZoneKey.UTC_KEY));
        assertThat(block.isNull(1)).isTrue();
        assertThat(type.getObject(block, 2)).isEqualTo(LongTimestampWithTimeZone.fromEpochMillisAndFraction(
                1_709_297_107_250L, 1_000_000, TimeZoneKey.UTC_KEY));
    }
}
