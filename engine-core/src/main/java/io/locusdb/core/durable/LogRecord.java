package io.locusdb.core.durable;

import io.locusdb.core.storage.placement.TableChange;
import io.locusdb.core.storage.table.ColumnDefault;
import io.locusdb.core.storage.table.IndexDefinition;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.ViewDefinition;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * What the write-ahead log holds: the effect of each committed statement, in commit order, enough to redo it on the
 * state of the last checkpoint. Rows are physical values, already checked and converted when they were logged.
 */
public sealed interface LogRecord {
    record CreateTable(String name, Schema schema, PartitionSpec spec, String group, List<Long> rangeBounds)
            implements LogRecord {
    }

    record DropTable(String name) implements LogRecord {
    }

    record CreateGroup(String name) implements LogRecord {
    }

    record DropGroup(String name) implements LogRecord {
    }

    /** CREATE [OR REPLACE] VIEW: the view as it now is. */
    record CreateView(ViewDefinition view) implements LogRecord {
    }

    record DropView(String name) implements LogRecord {
    }

    /** CREATE [UNIQUE] INDEX, or a UNIQUE constraint of CREATE TABLE: the index as stored. */
    record CreateIndex(IndexDefinition index) implements LogRecord {
    }

    record DropIndex(String name) implements LogRecord {
    }

    /** The column defaults of a table just created (one per column, null for none). */
    record ColumnDefaults(String table, List<ColumnDefault> defaults) implements LogRecord {
    }

    /** Rows added to a table as one commit. */
    record Insert(String table, List<Object[]> rows) implements LogRecord {
    }

    /**
     * Rows removed from a table and rows added, as one commit (DELETE, UPDATE). Removed rows are named by their
     * values: equal rows cannot be told apart, so removing any one of them gives the same table.
     */
    record Replace(String table, List<Object[]> removed, List<Object[]> added) implements LogRecord {
    }

    /**
     * One placement operation's changes, table by table, in the order they were installed: a table group's are one
     * record, so a restart redoes all of them or none.
     */
    record Placement(List<TableChange> changes) implements LogRecord {
        public Placement {
            changes = List.copyOf(changes);
        }
    }

    byte CREATE_TABLE = 1;
    byte DROP_TABLE = 2;
    byte CREATE_GROUP = 3;
    byte DROP_GROUP = 4;
    byte INSERT = 5;
    byte REPLACE = 6;
    byte PLACEMENT = 7;
    byte CREATE_VIEW = 8;
    byte DROP_VIEW = 9;
    /** CREATE TABLE of a table with a primary key: CREATE_TABLE's fields, then the key's column positions. */
    byte CREATE_KEYED_TABLE = 10;
    byte CREATE_INDEX = 11;
    byte DROP_INDEX = 12;
    byte COLUMN_DEFAULTS = 13;

    default byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            switch (this) {
                case CreateTable c -> {
                    out.writeByte(c.schema().isKeyed() ? CREATE_KEYED_TABLE : CREATE_TABLE);
                    Codec.writeString(out, c.name());
                    Codec.writeSchema(out, c.schema());
                    Codec.writeSpec(out, c.spec());
                    Codec.writeNullableString(out, c.group());
                    Codec.writeLongs(out, c.rangeBounds());
                    if (c.schema().isKeyed()) {
                        Codec.writeKey(out, c.schema());
                    }
                }
                case DropTable d -> {
                    out.writeByte(DROP_TABLE);
                    Codec.writeString(out, d.name());
                }
                case CreateGroup g -> {
                    out.writeByte(CREATE_GROUP);
                    Codec.writeString(out, g.name());
                }
                case DropGroup g -> {
                    out.writeByte(DROP_GROUP);
                    Codec.writeString(out, g.name());
                }
                case Insert i -> {
                    out.writeByte(INSERT);
                    Codec.writeString(out, i.table());
                    Codec.writeRows(out, i.rows());
                }
                case Replace r -> {
                    out.writeByte(REPLACE);
                    Codec.writeString(out, r.table());
                    Codec.writeRows(out, r.removed());
                    Codec.writeRows(out, r.added());
                }
                case Placement p -> {
                    out.writeByte(PLACEMENT);
                    Codec.writeChanges(out, p.changes());
                }
                case CreateView v -> {
                    out.writeByte(CREATE_VIEW);
                    Codec.writeString(out, v.view().name());
                    Codec.writeString(out, v.view().sql());
                    Codec.writeSchema(out, v.view().columns());
                }
                case DropView v -> {
                    out.writeByte(DROP_VIEW);
                    Codec.writeString(out, v.name());
                }
                case CreateIndex i -> {
                    out.writeByte(CREATE_INDEX);
                    Codec.writeIndex(out, i.index());
                }
                case DropIndex i -> {
                    out.writeByte(DROP_INDEX);
                    Codec.writeString(out, i.name());
                }
                case ColumnDefaults d -> {
                    out.writeByte(COLUMN_DEFAULTS);
                    Codec.writeString(out, d.table());
                    Codec.writeDefaults(out, d.defaults());
                }
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static LogRecord decode(DataInput in) throws IOException {
        int type = in.readUnsignedByte();
        return switch (type) {
            case CREATE_TABLE -> new CreateTable(Codec.readString(in), Codec.readSchema(in), Codec.readSpec(in),
                    Codec.readNullableString(in), Codec.readLongs(in));
            case CREATE_KEYED_TABLE -> {
                String name = Codec.readString(in);
                Schema schema = Codec.readSchema(in);
                PartitionSpec spec = Codec.readSpec(in);
                String group = Codec.readNullableString(in);
                List<Long> bounds = Codec.readLongs(in);
                yield new CreateTable(name, Codec.readKey(in, schema), spec, group, bounds);
            }
            case DROP_TABLE -> new DropTable(Codec.readString(in));
            case CREATE_GROUP -> new CreateGroup(Codec.readString(in));
            case DROP_GROUP -> new DropGroup(Codec.readString(in));
            case INSERT -> new Insert(Codec.readString(in), Codec.readRows(in));
            case REPLACE -> new Replace(Codec.readString(in), Codec.readRows(in), Codec.readRows(in));
            case PLACEMENT -> new Placement(Codec.readChanges(in));
            case CREATE_VIEW -> new CreateView(new ViewDefinition(Codec.readString(in), Codec.readString(in),
                    Codec.readSchema(in)));
            case DROP_VIEW -> new DropView(Codec.readString(in));
            case CREATE_INDEX -> new CreateIndex(Codec.readIndex(in));
            case DROP_INDEX -> new DropIndex(Codec.readString(in));
            case COLUMN_DEFAULTS -> new ColumnDefaults(Codec.readString(in), Codec.readDefaults(in));
            default -> throw new IOException("unknown record type " + type);
        };
    }
}
