package io.locusdb.core.durable;

import io.locusdb.core.durable.DataDirectoryException.Problem;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/** The log's segment format, and reading a segment back for recovery. */
final class LogFormat {
    static final byte[] SEGMENT_MAGIC = "LOCUSWL1".getBytes(StandardCharsets.US_ASCII);
    static final int SEGMENT_HEADER = SEGMENT_MAGIC.length + Long.BYTES;
    /** No record is larger (an INSERT of a million wide rows is split by nobody, but would still fit). */
    static final int MAX_RECORD = 1 << 30;

    private LogFormat() {
    }

    /** The records of one segment, in order. */
    record Segment(List<LogRecord> records, long validBytes, String warning) {
    }

    /**
     * Reads a segment. In the {@code last} segment a record cut short or failing its checksum at the very end is a
     * write the crash interrupted: the file is cut back to the end of the record before it, with a warning naming the
     * byte offset. Anywhere else such a record is damage: the start stops with {@link Problem#CORRUPT_LOG}.
     */
    static Segment read(Path file, long expectedNumber, boolean last) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new DataDirectoryException(Problem.IO, file, "cannot read: " + e.getMessage(), e);
        }
        if (bytes.length < SEGMENT_HEADER || last && allZero(bytes, 0)) {
            // A start creates its segment without waiting for the disk; a machine crash before its first record
            // leaves it empty, short or zero-filled. It held nothing: give it its header back, so that the segments
            // stay numbered without a gap.
            if (last) {
                return rewriteHeader(file, expectedNumber, "log segment header cut short (" + bytes.length
                        + " bytes) at the end of the log, rewritten");
            }
            throw new DataDirectoryException(Problem.CORRUPT_LOG, file, "log segment of " + bytes.length
                    + " bytes has no header");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN);
        byte[] magic = new byte[SEGMENT_MAGIC.length];
        in.get(magic);
        long number = in.getLong();
        if (!java.util.Arrays.equals(magic, SEGMENT_MAGIC) || number != expectedNumber) {
            throw new DataDirectoryException(Problem.CORRUPT_LOG, file, "not log segment " + expectedNumber
                    + " (bad header)");
        }
        List<LogRecord> records = new ArrayList<>();
        while (in.hasRemaining()) {
            int offset = in.position();
            if (in.remaining() < 8) {
                return tornOrCorrupt(file, offset, last, records, "record header cut short");
            }
            int length = in.getInt();
            int crc = in.getInt();
            if (length == 0 && crc == 0 && allZero(bytes, offset)) {
                return tornOrCorrupt(file, offset, last, records, "zero-filled tail");
            }
            if (length < 1 || length > MAX_RECORD) {
                return tornOrCorrupt(file, offset, last && offset + 8 >= bytes.length, records,
                        "record length " + length + " out of range");
            }
            if (length > in.remaining()) {
                return tornOrCorrupt(file, offset, last, records, "record of " + length + " bytes cut short");
            }
            CRC32C check = new CRC32C();
            check.update(bytes, in.position(), length);
            if ((int) check.getValue() != crc) {
                boolean atEnd = in.position() + length == bytes.length;
                return tornOrCorrupt(file, offset, last && atEnd, records, "record checksum mismatch");
            }
            try {
                records.add(LogRecord.decode(new DataInputStream(new ByteArrayInputStream(bytes, in.position(),
                        length))));
            } catch (IOException | RuntimeException e) {
                throw new DataDirectoryException(Problem.CORRUPT_LOG, file, "record at byte offset " + offset
                        + " does not parse: " + e.getMessage(), e);
            }
            in.position(in.position() + length);
        }
        return new Segment(records, bytes.length, null);
    }

    private static Segment tornOrCorrupt(Path file, int offset, boolean torn, List<LogRecord> records, String what) {
        if (!torn) {
            throw new DataDirectoryException(Problem.CORRUPT_LOG, file, what + " at byte offset " + offset
                    + " (not at the end of the log: damage, not an interrupted write)");
        }
        return truncate(file, offset, records, "torn record at the end of the log cut off at byte offset " + offset
                + " (" + what + ")");
    }

    private static Segment truncate(Path file, long offset, List<LogRecord> records, String warning) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(offset);
            channel.force(true);
        } catch (IOException e) {
            throw new DataDirectoryException(Problem.IO, file, "cannot cut the torn tail: " + e.getMessage(), e);
        }
        return new Segment(records, offset, file + ": " + warning);
    }

    private static Segment rewriteHeader(Path file, long number, String warning) {
        ByteBuffer header = ByteBuffer.allocate(SEGMENT_HEADER).order(ByteOrder.BIG_ENDIAN);
        header.put(SEGMENT_MAGIC).putLong(number).flip();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(0);
            while (header.hasRemaining()) {
                channel.write(header);
            }
            channel.force(true);
        } catch (IOException e) {
            throw new DataDirectoryException(Problem.IO, file, "cannot repair the log's last segment: "
                    + e.getMessage(), e);
        }
        return new Segment(List.of(), SEGMENT_HEADER, file + ": " + warning);
    }

    private static boolean allZero(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** Makes a rename or a new file in {@code directory} durable (its entry, not only the file's bytes). */
    static void syncDirectory(Path directory) {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // Some file systems refuse to open a directory for sync; the rename is then as durable as they make it.
        }
    }

    /** Segment numbers present in {@code directory}, ascending. */
    static List<Long> segments(Path directory) {
        List<Long> numbers = new ArrayList<>();
        if (!Files.isDirectory(directory)) {
            return numbers;
        }
        try (var files = Files.list(directory)) {
            files.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d{16}\\.log"))
                    .forEach(n -> numbers.add(Long.parseLong(n.substring(0, 16))));
        } catch (IOException e) {
            throw new DataDirectoryException(Problem.IO, directory, "cannot list: " + e.getMessage(), e);
        }
        numbers.sort(null);
        return numbers;
    }
}
