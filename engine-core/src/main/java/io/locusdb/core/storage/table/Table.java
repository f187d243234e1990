package io.locusdb.core.storage.table;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A table: schema plus the current {@link TableVersion}. Readers take snapshots without locks; placement operations
 * serialize on {@link #maintenanceLock()}, build new parts off to the side and {@link #install} them atomically.
 */
public final class Table {
    private final String name;
    private final Schema schema;
    private final AtomicReference<TableVersion> current;
    private final ReentrantLock maintenance = new ReentrantLock();
    private volatile String group;
    private volatile boolean dropped;

    public Table(String name, Schema schema, PartitionSpec spec, List<TablePart> parts, List<Long> rangeBounds) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a table needs a name");
        }
        if (parts.size() != spec.parts()) {
            throw new IllegalArgumentException("table " + name + ": " + parts.size() + " parts for a spec of "
                    + spec.parts());
        }
        if (spec.column() != null) {
            schema.indexOf(spec.column());
        }
        this.name = name;
        this.schema = schema;
        this.current = new AtomicReference<>(new TableVersion(1, spec, parts, rangeBounds));
    }

    public String name() {
        return name;
    }

    public Schema schema() {
        return schema;
    }

    public TableVersion version() {
        return current.get();
    }

    public PartitionSpec spec() {
        return current.get().spec();
    }

    public String group() {
        return group;
    }

    void group(String groupName) {
        this.group = groupName;
    }

    public ReentrantLock maintenanceLock() {
        return maintenance;
    }

    /** A consistent snapshot of the current parts, each referenced until the snapshot closes. */
    public TableSnapshot snapshot() {
        while (true) {
            TableVersion version = current.get();
            if (dropped) {
                throw new IllegalStateException("table " + name + " was dropped");
            }
            List<TablePart> acquired = new ArrayList<>(version.parts().size());
            boolean complete = true;
            for (TablePart part : version.parts()) {
                if (part.tryAcquire()) {
                    acquired.add(part);
                } else {
                    complete = false;
                    break;
                }
            }
            if (complete) {
                return new TableSnapshot(this, version);
            }
            // A part was freed: a newer version has been installed meanwhile. Let go and read that one.
            acquired.forEach(TablePart::release);
        }
    }

    /**
     * Replaces the current version (which must be {@code expected}) with new parts, then releases the parts that
     * are no longer listed; they are freed as soon as the last snapshot holding them closes.
     */
    public TableVersion install(TableVersion expected, PartitionSpec spec, List<TablePart> parts,
                                List<Long> rangeBounds) {
        TableVersion next = new TableVersion(expected.number() + 1, spec, parts, rangeBounds);
        if (!current.compareAndSet(expected, next)) {
            throw new IllegalStateException("table " + name + " changed during a placement operation");
        }
        retire(expected.parts(), parts);
        return next;
    }

    /** Marks the table dropped and releases its parts (freed once running queries finish). */
    void drop() {
        dropped = true;
        retire(current.get().parts(), List.of());
    }

    public boolean isDropped() {
        return dropped;
    }

    private static void retire(List<TablePart> old, List<TablePart> kept) {
        Set<TablePart> keep = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        keep.addAll(kept);
        for (TablePart part : old) {
            if (!keep.contains(part)) {
                part.release();
            }
        }
    }

    @Override
    public String toString() {
        return "Table[" + name + ", " + version().parts().size() + " parts]";
    }
}
