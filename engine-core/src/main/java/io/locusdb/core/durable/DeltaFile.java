package io.locusdb.core.durable;

import io.locusdb.core.durable.DataDirectoryException.Problem;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;

/**
 * A part's delta at a checkpoint: the rows inserted since its main columns were built and the rows deleted, as
 * values (the delta is small: the merge folds it once it grows). {@code "LOCUSDF1"}, rows, deleted row numbers,
 * then the crc32c of everything before it.
 */
final class DeltaFile {
    private static final byte[] MAGIC = "LOCUSDF1".getBytes(StandardCharsets.US_ASCII);

    record Content(List<Object[]> rows, List<Long> deletedRows) {
    }

    private DeltaFile() {
    }

    static void write(Path file, Content content) throws IOException {
        CRC32C crc = new CRC32C();
        try (FileOutputStream fileOut = new FileOutputStream(file.toFile());
             DataOutputStream out = new DataOutputStream(new BufferedOutputStream(
                     new CheckedOutputStream(fileOut, crc), 1 << 16))) {
            out.write(MAGIC);
            Codec.writeRows(out, content.rows());
            Codec.writeLongs(out, content.deletedRows());
            out.flush();
            DataOutputStream trailer = new DataOutputStream(fileOut);
            trailer.writeLong(crc.getValue());
            trailer.flush();
            fileOut.getFD().sync();
        }
    }

    static Content read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new DataDirectoryException(Problem.MISSING_FILE, file, "delta file is missing");
        } catch (IOException e) {
            throw new DataDirectoryException(Problem.IO, file, "cannot read: " + e.getMessage(), e);
        }
        if (bytes.length < MAGIC.length + 8) {
            throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "cut short (" + bytes.length + " bytes)");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 8);
        long stored = java.nio.ByteBuffer.wrap(bytes, bytes.length - 8, 8).getLong();
        if (stored != crc.getValue()) {
            throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "checksum mismatch: the file is damaged");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, 0, bytes.length - 8))) {
            byte[] magic = in.readNBytes(MAGIC.length);
            if (!java.util.Arrays.equals(magic, MAGIC)) {
                throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "not a LocusDB delta file");
            }
            return new Content(Codec.readRows(in), Codec.readLongs(in));
        } catch (IOException e) {
            throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "does not parse: " + e.getMessage(), e);
        }
    }
}
