package io.locusdb.core.durable;

import io.locusdb.core.storage.placement.PlacementChange;
import io.locusdb.core.storage.placement.TableChange;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.ColumnDefault;
import io.locusdb.core.storage.table.IndexDefinition;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary forms of what the log and the manifest hold: names, schemas, partition specs and row values. Values are
 * the tables' physical values (Long, Double, String or null), each with a tag, so a row reads back without its
 * schema.
 */
final class Codec {
    private static final byte NULL = 0;
    private static final byte LONG = 1;
    private static final byte DOUBLE = 2;
    private static final byte STRING = 3;

    private Codec() {
    }

    static void writeNullableString(DataOutput out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            writeString(out, s);
        }
    }

    static String readNullableString(DataInput in) throws IOException {
        return in.readBoolean() ? readString(in) : null;
    }

    /** Strings may be longer than writeUTF's 64 KiB: a length and UTF-8 bytes. */
    static void writeString(DataOutput out, String s) throws IOException {
        byte[] bytes = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static String readString(DataInput in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > (1 << 28)) {
            throw new IOException("string length " + length + " out of range");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }

    static void writeSchema(DataOutput out, Schema schema) throws IOException {
        out.writeInt(schema.size());
        for (ColumnDef c : schema.columns()) {
            writeString(out, c.name());
            ColumnType t = c.type();
            out.writeByte(t.kind().ordinal());
            out.writeInt(t.precision());
            out.writeInt(t.scale());
            out.writeInt(t.length());
            out.writeBoolean(c.nullable());
        }
    }

    static Schema readSchema(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 1 || n > 100_000) {
            throw new IOException("column count " + n + " out of range");
        }
        List<ColumnDef> columns = new ArrayList<>(n);
        TypeKind[] kinds = TypeKind.values();
        for (int i = 0; i < n; i++) {
            String name = readString(in);
            int kind = in.readUnsignedByte();
            if (kind >= kinds.length) {
                throw new IOException("unknown type kind " + kind);
            }
            ColumnType type = new ColumnType(kinds[kind], in.readInt(), in.readInt(), in.readInt());
            columns.add(new ColumnDef(name, type, in.readBoolean()));
        }
        return new Schema(columns);
    }

    /** A schema's primary key: the number of key columns, then their positions. */
    static void writeKey(DataOutput out, Schema schema) throws IOException {
        out.writeInt(schema.primaryKey().size());
        for (int k : schema.primaryKey()) {
            out.writeInt(k);
        }
    }

    /** A secondary index: name, table, unique, then each column's name and order. */
    static void writeIndex(DataOutput out, IndexDefinition index) throws IOException {
        writeString(out, index.name());
        writeString(out, index.table());
        out.writeBoolean(index.unique());
        out.writeInt(index.columns().size());
        for (int i = 0; i < index.columns().size(); i++) {
            writeString(out, index.columns().get(i));
            out.writeBoolean(index.descending().get(i));
        }
    }

    static IndexDefinition readIndex(DataInput in) throws IOException {
        String name = readString(in);
        String table = readString(in);
        boolean unique = in.readBoolean();
        int n = in.readInt();
        if (n <= 0 || n > 10_000) {
            throw new IOException("index " + name + " of " + n + " columns");
        }
        List<String> columns = new ArrayList<>(n);
        List<Boolean> descending = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            columns.add(readString(in));
            descending.add(in.readBoolean());
        }
        try {
            return new IndexDefinition(name, table, columns, descending, unique);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** {@code schema} with the primary key written by {@link #writeKey}. */
    static Schema readKey(DataInput in, Schema schema) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > schema.size()) {
            throw new IOException("primary key of " + n + " columns in a table of " + schema.size());
        }
        List<Integer> key = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int k = in.readInt();
            if (k < 0 || k >= schema.size()) {
                throw new IOException("primary key column " + k + " out of range");
            }
            key.add(k);
        }
        try {
            return schema.withPrimaryKey(key);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    static void writeSpec(DataOutput out, PartitionSpec spec) throws IOException {
        switch (spec) {
            case PartitionSpec.None n -> out.writeByte(0);
            case PartitionSpec.RoundRobin r -> {
                out.writeByte(1);
                out.writeInt(r.parts());
            }
            case PartitionSpec.Hash h -> {
                out.writeByte(2);
                writeString(out, h.column());
                out.writeInt(h.parts());
            }
            case PartitionSpec.Range r -> {
                out.writeByte(3);
                writeString(out, r.column());
                out.writeInt(r.parts());
            }
        }
    }

    static PartitionSpec readSpec(DataInput in) throws IOException {
        int kind = in.readUnsignedByte();
        return switch (kind) {
            case 0 -> PartitionSpec.none();
            case 1 -> new PartitionSpec.RoundRobin(in.readInt());
            case 2 -> new PartitionSpec.Hash(readString(in), in.readInt());
            case 3 -> new PartitionSpec.Range(readString(in), in.readInt());
            default -> throw new IOException("unknown partitioning kind " + kind);
        };
    }

    static void writeLongs(DataOutput out, List<Long> values) throws IOException {
        out.writeInt(values.size());
        for (long v : values) {
            out.writeLong(v);
        }
    }

    static List<Long> readLongs(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > (1 << 24)) {
            throw new IOException("list length " + n + " out of range");
        }
        List<Long> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            values.add(in.readLong());
        }
        return values;
    }

    /** A table's column defaults: their count, each one's kind (-1 for none), then their values as a row. */
    static void writeDefaults(DataOutput out, List<ColumnDefault> defaults) throws IOException {
        out.writeInt(defaults.size());
        Object[] values = new Object[defaults.size()];
        for (int i = 0; i < defaults.size(); i++) {
            ColumnDefault d = defaults.get(i);
            out.writeByte(d == null ? -1 : d.kind().ordinal());
            values[i] = d == null ? null : d.value();
        }
        writeRow(out, values);
    }

    static List<ColumnDefault> readDefaults(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 100_000) {
            throw new IOException("default count " + n + " out of range");
        }
        ColumnDefault.Kind[] kinds = ColumnDefault.Kind.values();
        int[] kind = new int[n];
        for (int i = 0; i < n; i++) {
            kind[i] = in.readByte();
            if (kind[i] >= kinds.length) {
                throw new IOException("unknown default kind " + kind[i]);
            }
        }
        Object[] values = readRow(in);
        if (values.length != n) {
            throw new IOException(values.length + " default values for " + n + " columns");
        }
        List<ColumnDefault> defaults = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            try {
                defaults.add(kind[i] < 0 ? null : new ColumnDefault(kinds[kind[i]], values[i]));
            } catch (IllegalArgumentException e) {
                throw new IOException(e.getMessage(), e);
            }
        }
        return defaults;
    }

    static void writeRows(DataOutput out, List<Object[]> rows) throws IOException {
        out.writeInt(rows.size());
        for (Object[] row : rows) {
            writeRow(out, row);
        }
    }

    static List<Object[]> readRows(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("row count " + n + " out of range");
        }
        List<Object[]> rows = new ArrayList<>(Math.min(n, 1 << 16));
        for (int i = 0; i < n; i++) {
            rows.add(readRow(in));
        }
        return rows;
    }

    static void writeRow(DataOutput out, Object[] row) throws IOException {
        out.writeInt(row.length);
        for (Object v : row) {
            switch (v) {
                case null -> out.writeByte(NULL);
                case Long l -> {
                    out.writeByte(LONG);
                    out.writeLong(l);
                }
                case Double d -> {
                    out.writeByte(DOUBLE);
                    out.writeDouble(d);
                }
                case String s -> {
                    out.writeByte(STRING);
                    writeString(out, s);
                }
                default -> throw new IllegalArgumentException("not a stored value: " + v.getClass().getName());
            }
        }
    }

    static Object[] readRow(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 100_000) {
            throw new IOException("row width " + n + " out of range");
        }
        Object[] row = new Object[n];
        for (int i = 0; i < n; i++) {
            int tag = in.readUnsignedByte();
            row[i] = switch (tag) {
                case NULL -> null;
                case LONG -> in.readLong();
                case DOUBLE -> in.readDouble();
                case STRING -> readString(in);
                default -> throw new IOException("unknown value tag " + tag);
            };
        }
        return row;
    }

    private static final byte MOVE = 1;
    private static final byte SPLIT = 2;
    private static final byte MERGE = 3;

    static void writeChanges(DataOutput out, List<TableChange> changes) throws IOException {
        out.writeInt(changes.size());
        for (TableChange c : changes) {
            writeString(out, c.table());
            switch (c.change()) {
                case PlacementChange.Move m -> {
                    out.writeByte(MOVE);
                    out.writeInt(m.part());
                    out.writeInt(m.node());
                }
                case PlacementChange.Split s -> {
                    out.writeByte(SPLIT);
                    writeLongs(out, s.rangeSplits());
                }
                case PlacementChange.Merge m -> {
                    out.writeByte(MERGE);
                    out.writeInt(m.node());
                }
            }
        }
    }

    static List<TableChange> readChanges(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > (1 << 20)) {
            throw new IOException("change count " + n + " out of range");
        }
        List<TableChange> changes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String table = readString(in);
            int kind = in.readUnsignedByte();
            PlacementChange change = switch (kind) {
                case MOVE -> new PlacementChange.Move(readIndex(in, "part"), readIndex(in, "node"));
                case SPLIT -> new PlacementChange.Split(readLongs(in));
                case MERGE -> new PlacementChange.Merge(readIndex(in, "node"));
                default -> throw new IOException("unknown placement change " + kind);
            };
            changes.add(new TableChange(table, change));
        }
        return changes;
    }

    private static int readIndex(DataInput in, String what) throws IOException {
        int value = in.readInt();
        if (value < 0) {
            throw new IOException(what + " " + value + " out of range");
        }
        return value;
    }
}
