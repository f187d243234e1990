package io.locusdb.server.pg;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Values as PostgreSQL writes them: numeric in text and binary, float8 in its shortest exact text. */
class PgValueWriterTest {
    @Test
    void numericsRoundTripThroughTheBinaryForm() {
        Random random = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            long unscaled = switch (i % 4) {
                case 0 -> random.nextLong();
                case 1 -> random.nextInt(2_000_000) - 1_000_000;
                case 2 -> (long) random.nextInt(100) * (long) Math.pow(10, random.nextInt(12));
                default -> i == 3 ? Long.MIN_VALUE : i == 7 ? Long.MAX_VALUE : 0;
            };
            int scale = random.nextInt(19);
            BigDecimal expected = BigDecimal.valueOf(unscaled, scale);
            ByteBuf buf = Unpooled.buffer();
            PgValueWriter.numeric(new PgWriter(buf), unscaled, scale);
            int length = buf.readInt();
            byte[] body = new byte[length];
            buf.readBytes(body);
            assertThat(PgType.decodeNumeric(ByteBuffer.wrap(body), 1)).as("%d scale %d", unscaled, scale)
                    .isEqualTo(expected);
            StringBuilder text = PgValueWriter.appendDecimal(new StringBuilder(), unscaled, scale);
            assertThat(text.toString()).isEqualTo(expected.toPlainString());
        }
    }

    @Test
    void doublesPrintAsPostgresPrintsThem() {
        assertThat(PgValueWriter.formatDouble(2.0)).isEqualTo("2");
        assertThat(PgValueWriter.formatDouble(0.1)).isEqualTo("0.1");
        assertThat(PgValueWriter.formatDouble(1e15)).isEqualTo("1e+15");
        assertThat(PgValueWriter.formatDouble(123456789012345.0)).isEqualTo("123456789012345");
        assertThat(PgValueWriter.formatDouble(12345678.5)).isEqualTo("12345678.5");
        assertThat(PgValueWriter.formatDouble(0.0001)).isEqualTo("0.0001");
        assertThat(PgValueWriter.formatDouble(0.00001)).isEqualTo("1e-05");
        assertThat(PgValueWriter.formatDouble(-1.5e300)).isEqualTo("-1.5e+300");
        assertThat(PgValueWriter.formatDouble(-0.0)).isEqualTo("-0");
        assertThat(PgValueWriter.formatDouble(Double.NaN)).isEqualTo("NaN");
        assertThat(PgValueWriter.formatDouble(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
    }
}
