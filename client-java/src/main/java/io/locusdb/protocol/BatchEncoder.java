package io.locusdb.protocol;

import java.util.function.IntFunction;

/**
 * Writes a BATCH frame column by column straight from the producer's arrays: {@link #begin}, then for every column
 * {@link #nulls} followed by one of the value writers, then {@link WireWriter#endFrame}. Strings are encoded as
 * UTF-8 directly into the frame buffer, without a temporary byte array per value.
 */
public final class BatchEncoder {
    private BatchEncoder() {
    }

    public static void begin(WireWriter w, int rows) {
        w.beginFrame(Protocol.BATCH);
        w.putU32(rows);
    }

    /** The null flag and, when any of rows {@code from..from+rows} is null, the bitmap. */
    public static void nulls(WireWriter w, boolean[] nulls, int from, int rows) {
        boolean any = false;
        if (nulls != null) {
            for (int i = from; i < from + rows; i++) {
                if (nulls[i]) {
                    any = true;
                    break;
                }
            }
        }
        if (!any) {
            w.putU8(0);
            return;
        }
        w.putU8(1);
        int at = w.reserve((rows + 7) >>> 3);
        byte[] b = w.array();
        for (int i = 0; i < (rows + 7) >>> 3; i++) {
            b[at + i] = 0;
        }
        for (int r = 0; r < rows; r++) {
            if (nulls[from + r]) {
                b[at + (r >>> 3)] |= (byte) (1 << (r & 7));
            }
        }
    }

    /** Values of a BOOLEAN, INTEGER, DATE, BIGINT, DECIMAL, TIMESTAMP or INTERVAL column held as longs (the engine's physical form). */
    public static void longs(WireWriter w, WireType type, long[] values, boolean[] nulls, int from, int rows) {
        switch (type.tag()) {
            case WireType.BOOLEAN -> {
                int at = w.reserve(rows);
                byte[] b = w.array();
                for (int r = 0; r < rows; r++) {
                    b[at + r] = (byte) (isNull(nulls, from + r) || values[from + r] == 0 ? 0 : 1);
                }
            }
            case WireType.INTEGER, WireType.DATE -> {
                for (int r = 0; r < rows; r++) {
                    w.putI32(isNull(nulls, from + r) ? 0 : (int) values[from + r]);
                }
            }
            case WireType.BIGINT, WireType.DECIMAL, WireType.TIMESTAMP, WireType.INTERVAL_DAY_TIME,
                 WireType.INTERVAL_YEAR_MONTH, WireType.TIMESTAMP_TZ -> {
                for (int r = 0; r < rows; r++) {
                    w.putI64(isNull(nulls, from + r) ? 0 : values[from + r]);
                }
            }
            default -> throw new IllegalArgumentException(type + " values are not held as longs");
        }
    }

    public static void doubles(WireWriter w, double[] values, boolean[] nulls, int from, int rows) {
        for (int r = 0; r < rows; r++) {
            w.putF64(isNull(nulls, from + r) ? 0.0 : values[from + r]);
        }
    }

    /** String values by row index ({@code from..from+rows}); null rows are written empty. */
    public static void strings(WireWriter w, IntFunction<String> values, boolean[] nulls, int from, int rows) {
        int lengths = w.reserve(rows * 4);
        for (int r = 0; r < rows; r++) {
            int row = from + r;
            String s = isNull(nulls, row) ? null : values.apply(row);
            int written = s == null ? 0 : putUtf8(w, s);
            w.writeIntAt(lengths + r * 4, written);
        }
    }

    private static boolean isNull(boolean[] nulls, int row) {
        return nulls != null && nulls[row];
    }

    /** The bytes {@link #strings} writes for {@code s}: its UTF-8 length, an unpaired surrogate counting 1 ('?'). */
    public static long utf8Length(String s) {
        int n = s.length();
        long bytes = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                continue;
            }
            if (c < 0x800) {
                bytes += 1;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 2;
                i++;
            } else if (!Character.isSurrogate(c)) {
                bytes += 2;
            }
        }
        return bytes;
    }

    /** Appends {@code s} as UTF-8 (unpaired surrogates become '?', as String.getBytes does); returns the bytes. */
    static int putUtf8(WireWriter w, String s) {
        int n = s.length();
        int at = w.reserve(n);
        byte[] b = w.array();
        int i = 0;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                break;
            }
            b[at + i] = (byte) c;
        }
        if (i == n) {
            return n;
        }
        // Rare path: give back the reservation past the ASCII prefix and append the rest through getBytes.
        int written = i;
        w.shrink(n - i);
        byte[] rest = s.substring(i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        w.putBytes(rest, 0, rest.length);
        return written + rest.length;
    }
}
