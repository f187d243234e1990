package io.locusdb.core.durable;

import io.locusdb.core.durable.DataDirectoryException.Problem;
import io.locusdb.core.storage.table.ColumnDefault;
import io.locusdb.core.storage.table.IndexDefinition;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.ViewDefinition;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The checkpoint a data directory starts from: the table groups, each table's schema, partitioning and parts (the
 * node each part lives on and the files that hold it), and the first log segment to replay on top. A checkpoint
 * becomes current only when its manifest is renamed into place, so a crash leaves either the old or the new one.
 *
 * @param logStart   the first log segment not contained in this checkpoint
 * @param nextFileId the next number for a part or delta file name
 */
record Manifest(long checkpoint, long logStart, long nextFileId, List<String> groups, List<TableEntry> tables,
                List<ViewDefinition> views, List<IndexDefinition> indexes) {
    static final String FILE = "MANIFEST";
    private static final byte[] MAGIC = "LOCUSMF1".getBytes(StandardCharsets.US_ASCII);

    /** A table: {@code defaults} its column defaults (empty when it has none). */
    record TableEntry(String name, String group, Schema schema, PartitionSpec spec, List<Long> rangeBounds,
                      List<PartEntry> parts, List<ColumnDefault> defaults) {
    }

    /** A part: its node, its main columns' file, its rows, and its delta's file (null when the delta was empty). */
    record PartEntry(int node, String mainFile, long rows, String deltaFile) {
    }

    static Manifest empty() {
        return new Manifest(0, 1, 1, List.of(), List.of(), List.of(), List.of());
    }

    /** Writes the manifest beside the current one, forces it, and renames it into place. */
    void install(Path directory) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.write(MAGIC);
        out.writeLong(checkpoint);
        out.writeLong(logStart);
        out.writeLong(nextFileId);
        out.writeInt(groups.size());
        for (String g : groups) {
            Codec.writeString(out, g);
        }
        out.writeInt(tables.size());
        for (TableEntry t : tables) {
            Codec.writeString(out, t.name());
            Codec.writeNullableString(out, t.group());
            Codec.writeSchema(out, t.schema());
            Codec.writeSpec(out, t.spec());
            Codec.writeLongs(out, t.rangeBounds());
            out.writeInt(t.parts().size());
            for (PartEntry p : t.parts()) {
                out.writeInt(p.node());
                Codec.writeString(out, p.mainFile());
                out.writeLong(p.rows());
                Codec.writeNullableString(out, p.deltaFile());
            }
        }
        // Views come last: a manifest written before views existed ends here, and reads as one without views.
        out.writeInt(views.size());
        for (ViewDefinition v : views) {
            Codec.writeString(out, v.name());
            Codec.writeString(out, v.sql());
            Codec.writeSchema(out, v.columns());
        }
        // Primary keys after the views, for the same reason: an older manifest ends before them (no keys).
        List<TableEntry> keyed = tables.stream().filter(t -> t.schema().isKeyed()).toList();
        out.writeInt(keyed.size());
        for (TableEntry t : keyed) {
            Codec.writeString(out, t.name());
            Codec.writeKey(out, t.schema());
        }
        // Secondary indexes last: a manifest written before them ends here (no indexes).
        out.writeInt(indexes.size());
        for (IndexDefinition index : indexes) {
            Codec.writeIndex(out, index);
        }
        // Column defaults after the indexes: a manifest written before them ends here (no defaults).
        List<TableEntry> defaulted = tables.stream().filter(t -> !t.defaults().isEmpty()).toList();
        out.writeInt(defaulted.size());
        for (TableEntry t : defaulted) {
            Codec.writeString(out, t.name());
            Codec.writeDefaults(out, t.defaults());
        }
        out.flush();
        CRC32C crc = new CRC32C();
        crc.update(bytes.toByteArray());
        out.writeLong(crc.getValue());
        out.flush();
        Path temporary = directory.resolve(FILE + ".tmp");
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes.toByteArray());
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        Files.move(temporary, directory.resolve(FILE), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        LogFormat.syncDirectory(directory);
    }

    static Manifest read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new DataDirectoryException(Problem.BAD_MANIFEST, file, "cannot read: " + e.getMessage(), e);
        }
        if (bytes.length < MAGIC.length + 8) {
            throw new DataDirectoryException(Problem.BAD_MANIFEST, file, "cut short (" + bytes.length + " bytes)");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 8);
        if (ByteBuffer.wrap(bytes, bytes.length - 8, 8).getLong() != crc.getValue()) {
            throw new DataDirectoryException(Problem.BAD_MANIFEST, file, "checksum mismatch: the manifest is"
                    + " damaged");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, 0, bytes.length - 8))) {
            if (!java.util.Arrays.equals(in.readNBytes(MAGIC.length), MAGIC)) {
                throw new DataDirectoryException(Problem.BAD_MANIFEST, file, "not a LocusDB manifest");
            }
            long checkpoint = in.readLong();
            long logStart = in.readLong();
            long nextFileId = in.readLong();
            int groupCount = in.readInt();
            List<String> groups = new ArrayList<>();
            for (int i = 0; i < groupCount; i++) {
                groups.add(Codec.readString(in));
            }
            int tableCount = in.readInt();
            List<TableEntry> tables = new ArrayList<>();
            for (int i = 0; i < tableCount; i++) {
                String name = Codec.readString(in);
                String group = Codec.readNullableString(in);
                Schema schema = Codec.readSchema(in);
                PartitionSpec spec = Codec.readSpec(in);
                List<Long> bounds = Codec.readLongs(in);
                int partCount = in.readInt();
                List<PartEntry> parts = new ArrayList<>();
                for (int p = 0; p < partCount; p++) {
                    parts.add(new PartEntry(in.readInt(), Codec.readString(in), in.readLong(),
                            Codec.readNullableString(in)));
                }
                tables.add(new TableEntry(name, group, schema, spec, bounds, parts, List.of()));
            }
            List<ViewDefinition> views = new ArrayList<>();
            if (in.available() > 0) {
                int viewCount = in.readInt();
                for (int i = 0; i < viewCount; i++) {
                    views.add(new ViewDefinition(Codec.readString(in), Codec.readString(in), Codec.readSchema(in)));
                }
            }
            if (in.available() > 0) {
                int keyedCount = in.readInt();
                for (int i = 0; i < keyedCount; i++) {
                    String name = Codec.readString(in);
                    int at = -1;
                    for (int t = 0; t < tables.size(); t++) {
                        if (tables.get(t).name().equals(name)) {
                            at = t;
                        }
                    }
                    if (at < 0) {
                        throw new IOException("primary key of an unknown table " + name);
                    }
                    TableEntry t = tables.get(at);
                    tables.set(at, new TableEntry(t.name(), t.group(), Codec.readKey(in, t.schema()), t.spec(),
                            t.rangeBounds(), t.parts(), t.defaults()));
                }
            }
            List<IndexDefinition> indexes = new ArrayList<>();
            if (in.available() > 0) {
                int indexCount = in.readInt();
                for (int i = 0; i < indexCount; i++) {
                    indexes.add(Codec.readIndex(in));
                }
            }
            if (in.available() > 0) {
                int defaultedCount = in.readInt();
                for (int i = 0; i < defaultedCount; i++) {
                    String name = Codec.readString(in);
                    List<ColumnDefault> defaults = Codec.readDefaults(in);
                    int at = -1;
                    for (int t = 0; t < tables.size(); t++) {
                        if (tables.get(t).name().equals(name)) {
                            at = t;
                        }
                    }
                    if (at < 0 || defaults.size() != tables.get(at).schema().size()) {
                        throw new IOException("column defaults of " + (at < 0 ? "an unknown table " : "table ")
                                + name + " do not fit it");
                    }
                    TableEntry t = tables.get(at);
                    tables.set(at, new TableEntry(t.name(), t.group(), t.schema(), t.spec(), t.rangeBounds(),
                            t.parts(), defaults));
                }
            }
            return new Manifest(checkpoint, logStart, nextFileId, groups, tables, views, indexes);
        } catch (IOException | IllegalArgumentException e) {
            throw new DataDirectoryException(Problem.BAD_MANIFEST, file, "does not parse: " + e.getMessage(), e);
        }
    }
}
