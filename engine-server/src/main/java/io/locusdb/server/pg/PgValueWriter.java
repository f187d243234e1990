package io.locusdb.server.pg;

import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.Intervals;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.ZonedTimestamps;
import io.locusdb.core.vector.ColumnVector;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

/**
 * Writes a result's rows as DataRow messages straight from the engine's column vectors, each column in the format
 * the client asked for (text as PostgreSQL prints it with {@code DateStyle=ISO} and {@code extra_float_digits=1},
 * or binary).
 */
public final class PgValueWriter {
    private final ColumnType[] types;
    private final boolean[] binary;
    private final StringBuilder text = new StringBuilder(32);
    /** The session's zone, in which TIMESTAMP WITH TIME ZONE values are shown as text. */
    private final ZoneId zone;

    public PgValueWriter(List<ColumnType> types, short[] resultFormats, ZoneId zone) {
        this.types = types.toArray(ColumnType[]::new);
        this.zone = zone;
        this.binary = new boolean[this.types.length];
        for (int c = 0; c < binary.length; c++) {
            binary[c] = format(resultFormats, c) == 1;
        }
    }

    /** The format of column {@code c}: none given = all text, one = for all, else one per column. */
    public static short format(short[] formats, int c) {
        return formats.length == 0 ? 0 : formats.length == 1 ? formats[0] : formats[c];
    }

    public boolean binary(int column) {
        return binary[column];
    }

    /** One DataRow for row {@code row} of {@code batch}. */
    public void row(PgWriter w, ResultBatch batch, int row) {
        w.begin('D').int16(types.length);
        for (int c = 0; c < types.length; c++) {
            ColumnVector v = batch.vector(c);
            if (v.anyNull() && v.isNull(row)) {
                w.int32(-1);
            } else if (binary[c]) {
                binaryValue(w, types[c], v, row);
            } else {
                textValue(w, types[c], v, row, zone);
            }
        }
        w.end();
    }

    /** A non-null value's text form. */
    public static String text(ColumnType type, ColumnVector v, int row, ZoneId zone) {
        return switch (type.kind()) {
            case VARCHAR, CHAR -> v.string(row);
            case BOOLEAN -> v.longs()[row] != 0 ? "t" : "f";
            case INTEGER, BIGINT -> Long.toString(v.longs()[row]);
            case DOUBLE -> formatDouble(v.doubles()[row]);
            case DECIMAL -> BigDecimal.valueOf(v.longs()[row], type.scale()).toPlainString();
            case DATE -> formatDate(v.longs()[row]);
            case TIMESTAMP -> Timestamps.format(v.longs()[row]);
            case TIMESTAMP_TZ -> ZonedTimestamps.format(v.longs()[row], zone);
            case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> Intervals.text(type.kind(), v.longs()[row]);
        };
    }

    private void textValue(PgWriter w, ColumnType type, ColumnVector v, int row, ZoneId zone) {
        switch (type.kind()) {
            case VARCHAR, CHAR -> w.text(v.string(row));
            case BOOLEAN -> w.text(v.longs()[row] != 0 ? "t" : "f");
            case INTEGER, BIGINT -> {
                text.setLength(0);
                w.text(text.append(v.longs()[row]));
            }
            case DOUBLE -> w.text(formatDouble(v.doubles()[row]));
            case DECIMAL -> {
                text.setLength(0);
                w.text(appendDecimal(text, v.longs()[row], type.scale()));
            }
            case DATE -> w.text(formatDate(v.longs()[row]));
            case TIMESTAMP -> w.text(Timestamps.format(v.longs()[row]));
            case TIMESTAMP_TZ -> w.text(ZonedTimestamps.format(v.longs()[row], zone));
            case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> w.text(Intervals.text(type.kind(), v.longs()[row]));
        }
    }

    /** An unscaled value with {@code scale} digits after the point, as PostgreSQL prints numeric, without objects. */
    static StringBuilder appendDecimal(StringBuilder s, long unscaled, int scale) {
        if (unscaled == Long.MIN_VALUE) {
            return s.append(BigDecimal.valueOf(unscaled, scale).toPlainString());
        }
        if (unscaled < 0) {
            s.append('-');
        }
        long abs = Math.abs(unscaled);
        if (scale == 0) {
            return s.append(abs);
        }
        long factor = TEN_POWERS[scale];
        s.append(abs / factor).append('.');
        long fraction = abs % factor;
        for (long f = factor / 10; f > fraction && f > 1; f /= 10) {
            s.append('0');
        }
        return fraction == 0 ? s.append('0') : s.append(fraction);
    }

    private static final long[] TEN_POWERS = new long[19];

    static {
        TEN_POWERS[0] = 1;
        for (int i = 1; i < TEN_POWERS.length; i++) {
            TEN_POWERS[i] = TEN_POWERS[i - 1] * 10;
        }
    }

    private static void binaryValue(PgWriter w, ColumnType type, ColumnVector v, int row) {
        switch (type.kind()) {
            case VARCHAR, CHAR -> w.text(v.string(row));
            case BOOLEAN -> w.int32(1).int8(v.longs()[row] != 0 ? 1 : 0);
            case INTEGER -> w.int32(4).int32((int) v.longs()[row]);
            case BIGINT -> w.int32(8).int64(v.longs()[row]);
            case DOUBLE -> w.int32(8).int64(Double.doubleToRawLongBits(v.doubles()[row]));
            case DECIMAL -> numeric(w, v.longs()[row], type.scale());
            case DATE -> w.int32(4).int32((int) (v.longs()[row] - PgType.PG_EPOCH_DAY));
            // Microseconds since 2000-01-01, PostgreSQL's binary timestamp.
            // timestamptz the same, at UTC.
            case TIMESTAMP, TIMESTAMP_TZ -> w.int32(8).int64(v.longs()[row]
                    - PgType.PG_EPOCH_DAY * Timestamps.MICROS_PER_DAY);
            // PostgreSQL's binary interval: microseconds of the time, days, months.
            case INTERVAL_DAY_TIME -> w.int32(16).int64(v.longs()[row] % Timestamps.MICROS_PER_DAY)
                    .int32((int) (v.longs()[row] / Timestamps.MICROS_PER_DAY)).int32(0);
            case INTERVAL_YEAR_MONTH -> w.int32(16).int64(0).int32(0).int32((int) v.longs()[row]);
        }
    }

    /** Dates as PostgreSQL's ISO style prints them (years after 9999 in full, BC years with a suffix). */
    public static String formatDate(long epochDay) {
        LocalDate d = LocalDate.ofEpochDay(epochDay);
        int year = d.getYear();
        if (year >= 1 && year <= 9999) {
            return d.toString();
        }
        String y = Integer.toString(year > 0 ? year : 1 - year);
        String body = "0".repeat(Math.max(0, 4 - y.length())) + y + d.toString().substring(d.toString().indexOf('-',
                1));
        return year > 0 ? body : body + " BC";
    }

    /**
     * float8 as PostgreSQL 12+ prints it: the shortest text that reads back exactly, in plain notation for decimal
     * exponents -4..14, otherwise as {@code d.ddde+XX}.
     */
    public static String formatDouble(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        if (d == 0) {
            return 1 / d < 0 ? "-0" : "0";
        }
        String java = Double.toString(d);
        if (java.indexOf('E') < 0) {
            // Java's plain form covers 1e-3 <= |d| < 1e7, inside PostgreSQL's plain range: only ".0" differs.
            return java.endsWith(".0") ? java.substring(0, java.length() - 2) : java;
        }
        BigDecimal shortest = new BigDecimal(java).stripTrailingZeros();
        int exponent = shortest.precision() - shortest.scale() - 1;
        if (exponent >= -4 && exponent < 15) {
            return shortest.toPlainString();
        }
        String digits = shortest.unscaledValue().abs().toString();
        StringBuilder s = new StringBuilder(24);
        if (d < 0) {
            s.append('-');
        }
        s.append(digits.charAt(0));
        if (digits.length() > 1) {
            s.append('.').append(digits, 1, digits.length());
        }
        s.append('e').append(exponent < 0 ? '-' : '+');
        int e = Math.abs(exponent);
        if (e < 10) {
            s.append('0');
        }
        return s.append(e).toString();
    }

    /**
     * NUMERIC's binary form from an unscaled value and its scale: base-10000 digits aligned at the decimal point,
     * the weight of the first, leading and trailing zero digits left out.
     */
    static void numeric(PgWriter w, long unscaled, int scale) {
        long abs = Math.abs(unscaled);
        int pad = (4 - scale % 4) % 4;
        if (unscaled == Long.MIN_VALUE || scale > 18 || abs > Long.MAX_VALUE / TEN_POWERS[pad]) {
            numericSlow(w, unscaled, scale);
            return;
        }
        int at = w.reserveLength();
        if (unscaled == 0) {
            w.int16(0).int16(0).int16(0).int16(scale);
            w.patchLength(at);
            return;
        }
        long aligned = abs * TEN_POWERS[pad];
        int fractionGroups = (scale + pad) / 4;
        // Groups from the least significant; at most 5 for a long.
        short[] groups = new short[6];
        int count = 0;
        while (aligned > 0) {
            groups[count++] = (short) (aligned % 10_000);
            aligned /= 10_000;
        }
        int low = 0;
        while (groups[low] == 0) {
            low++;
        }
        int weight = count - 1 - fractionGroups;
        w.int16(count - low).int16(weight).int16(unscaled < 0 ? 0x4000 : 0).int16(scale);
        for (int g = count - 1; g >= low; g--) {
            w.int16(groups[g]);
        }
        w.patchLength(at);
    }

    private static void numericSlow(PgWriter w, long unscaled, int scale) {
        int at = w.reserveLength();
        if (unscaled == 0) {
            w.int16(0).int16(0).int16(0).int16(scale);
            w.patchLength(at);
            return;
        }
        String digits = unscaled == Long.MIN_VALUE ? "9223372036854775808" : Long.toString(Math.abs(unscaled));
        int intLength = digits.length() - scale;
        String intPart = intLength > 0 ? digits.substring(0, intLength) : "";
        String fracPart = intLength > 0 ? digits.substring(intLength) : "0".repeat(-intLength) + digits;
        int intGroups = (intPart.length() + 3) / 4;
        String padded = "0".repeat(intGroups * 4 - intPart.length()) + intPart
                + fracPart + "0".repeat((4 - fracPart.length() % 4) % 4);
        int groups = padded.length() / 4;
        short[] base10000 = new short[groups];
        for (int g = 0; g < groups; g++) {
            base10000[g] = Short.parseShort(padded.substring(g * 4, g * 4 + 4));
        }
        int first = 0;
        while (first < groups && base10000[first] == 0) {
            first++;
        }
        int last = groups - 1;
        while (last > first && base10000[last] == 0) {
            last--;
        }
        int weight = intGroups - 1 - first;
        w.int16(last - first + 1).int16(weight).int16(unscaled < 0 ? 0x4000 : 0).int16(scale);
        for (int g = first; g <= last; g++) {
            w.int16(base10000[g]);
        }
        w.patchLength(at);
    }
}
