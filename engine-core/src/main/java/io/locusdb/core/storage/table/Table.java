package io.locusdb.core.storage.table;

import io.locusdb.core.storage.index.MainKeyIndex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
    /** The primary key's column positions; empty for a table without one. */
    private final int[] keyColumns;
    /** The secondary indexes, replaced whole under the maintenance lock. */
    private volatile List<IndexDefinition> indexes = List.of();
    /** The keys no two rows may share: the primary key, then each unique index; replaced with {@link #indexes}. */
    private volatile List<UniqueKey> uniqueKeys;
    /** The columns some index leads with (the primary key's first column first), each once. */
    private volatile int[] indexedColumns;
    private volatile String group;
    private volatile long committed;
    private long roundRobin;
    private volatile boolean dropped;
    /** Per column, its default (null for none): empty when no column has one. */
    private volatile List<ColumnDefault> defaults = List.of();

    public Table(String name, Schema schema, PartitionSpec spec, List<TablePart> parts, List<Long> rangeBounds) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a table needs a name");
        }
        if (parts.size() != spec.parts()) {
            throw new IllegalArgumentException("table " + name + ": " + parts.size() + " parts for a spec of "
                    + spec.parts());
        }
        if (spec.column() != null) {
            ColumnDef key = schema.column(schema.indexOf(spec.column()));
            if (spec instanceof PartitionSpec.Range
                    && key.type().physical() != io.locusdb.core.storage.type.TypeKind.Physical.LONG) {
                throw new IllegalArgumentException("RANGE partitioning needs an integer, decimal or date column; "
                        + key.name() + " is " + key.type());
            }
        }
        this.name = name;
        this.schema = schema;
        this.keyColumns = schema.primaryKey().stream().mapToInt(Integer::intValue).toArray();
        this.current = new AtomicReference<>(new TableVersion(1, 1, spec, parts, rangeBounds));
        publishIndexes(List.of());
    }

    /** Per column (schema order), its default or null; empty when no column has one. */
    public List<ColumnDefault> defaults() {
        return defaults;
    }

    /** The default of column {@code column}, or null. */
    public ColumnDefault defaultOf(int column) {
        List<ColumnDefault> d = defaults;
        return d.isEmpty() ? null : d.get(column);
    }

    /**
     * Sets the columns' defaults (one per column, null for none), as CREATE TABLE, ALTER TABLE and a restart from
     * a data directory give them.
     */
    public void defaults(List<ColumnDefault> perColumn) {
        if (perColumn.isEmpty() || perColumn.stream().allMatch(d -> d == null)) {
            defaults = List.of();
            return;
        }
        if (perColumn.size() != schema.size()) {
            throw new IllegalArgumentException("table " + name + ": " + perColumn.size() + " defaults for "
                    + schema.size() + " columns");
        }
        defaults = Collections.unmodifiableList(new ArrayList<>(perColumn));
    }

    /** A key no two visible rows may share, and the constraint that says so. */
    private record UniqueKey(String constraint, int[] columns) {
    }

    /** The table's secondary indexes, in the order they were created. */
    public List<IndexDefinition> indexes() {
        return indexes;
    }

    /**
     * The columns an index scan can look rows up by: the primary key's first column and each index's leading
     * column, each once, the primary key's first.
     */
    public int[] indexedColumns() {
        return indexedColumns;
    }

    /** The index that leads with {@code column}: the primary key's name ({@code table_pkey}) or an index's. */
    public String indexOn(int column) {
        if (keyColumns.length > 0 && keyColumns[0] == column) {
            return KeyViolationException.constraintName(name);
        }
        for (IndexDefinition index : indexes) {
            if (schema.indexOf(index.columns().getFirst()) == column) {
                return index.name();
            }
        }
        return null;
    }

    /**
     * Adds a secondary index. A unique one is first checked against the visible rows: when two share a key the
     * index is not added and {@link KeyViolationException} names them. Writers wait meanwhile, so no row can slip
     * in between the check and the index. {@code check} false trusts the rows (a restart restoring what was checked).
     */
    public void addIndex(IndexDefinition index, boolean check) {
        int[] columns = index.columns().stream().mapToInt(schema::indexOf).toArray();
        maintenance.lock();
        try {
            checkNotDropped();
            for (IndexDefinition existing : indexes) {
                if (existing.name().equalsIgnoreCase(index.name())) {
                    throw new IllegalArgumentException("table " + name + " already has an index " + index.name());
                }
            }
            if (index.unique() && check) {
                checkUnique(new UniqueKey(index.name(), columns));
            }
            List<IndexDefinition> next = new ArrayList<>(indexes);
            next.add(index.onTable(name));
            publishIndexes(next);
        } finally {
            maintenance.unlock();
        }
    }

    /** Removes the secondary index {@code indexName}; false when the table has none of that name. */
    public boolean removeIndex(String indexName) {
        maintenance.lock();
        try {
            List<IndexDefinition> next = new ArrayList<>(indexes);
            if (!next.removeIf(i -> i.name().equalsIgnoreCase(indexName))) {
                return false;
            }
            publishIndexes(next);
            return true;
        } finally {
            maintenance.unlock();
        }
    }

    private void publishIndexes(List<IndexDefinition> next) {
        List<UniqueKey> keys = new ArrayList<>();
        Set<Integer> leading = new LinkedHashSet<>();
        if (keyColumns.length > 0) {
            keys.add(new UniqueKey(KeyViolationException.constraintName(name), keyColumns));
            leading.add(keyColumns[0]);
        }
        for (IndexDefinition index : next) {
            int[] columns = index.columns().stream().mapToInt(schema::indexOf).toArray();
            if (index.unique()) {
                keys.add(new UniqueKey(index.name(), columns));
            }
            leading.add(columns[0]);
        }
        this.indexes = List.copyOf(next);
        this.uniqueKeys = List.copyOf(keys);
        this.indexedColumns = leading.stream().mapToInt(Integer::intValue).toArray();
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
            // Version, then commit, then the version again: the commit read is then one the version contains
            // (placement operations fold only commits made before they install) and no later commit went to
            // another version's deltas.
            TableVersion version = current.get();
            long commit = committed;
            if (current.get() != version) {
                continue;
            }
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
                return new TableSnapshot(this, version, commit);
            }
            // A part was freed: a newer version has been installed meanwhile. Let go and read that one.
            acquired.forEach(TablePart::release);
        }
    }

    /**
     * A snapshot that reads only part {@code part}, of a table the caller saw with {@code expectedParts} parts.
     * Throws {@link PartsChangedException} when the table has another number of parts now: its rows are divided
     * otherwise, and the part the caller means no longer exists as such.
     */
    public TableSnapshot snapshot(int part, int expectedParts) {
        return snapshot(part, expectedParts, -1);
    }

    /**
     * As above, and the table's rows must still be in division {@code expectedDivision} (see
     * {@link TableVersion#division()}; negative: not checked): the same count of parts after a merge and a
     * repartition may divide the rows otherwise.
     */
    public TableSnapshot snapshot(int part, int expectedParts, long expectedDivision) {
        TableSnapshot whole = snapshot();
        int now = whole.parts().size();
        long division = whole.version().division();
        if (now != expectedParts || expectedDivision >= 0 && division != expectedDivision) {
            whole.close();
            throw new PartsChangedException(name, part, expectedParts, now, expectedDivision, division);
        }
        return whole.select(part);
    }

    /**
     * Replaces the current version (which must be {@code expected}) with new parts, then releases the parts that
     * are no longer listed; they are freed as soon as the last snapshot holding them closes.
     */
    public TableVersion install(TableVersion expected, PartitionSpec spec, List<TablePart> parts,
                                List<Long> rangeBounds) {
        return install(expected, spec, parts, rangeBounds, false);
    }

    /**
     * As above; {@code sameDivision}: each new part holds the rows of the part of its index before (a move, deltas
     * folded in), so the version keeps its {@link TableVersion#division() division}.
     */
    public TableVersion install(TableVersion expected, PartitionSpec spec, List<TablePart> parts,
                                List<Long> rangeBounds, boolean sameDivision) {
        if (!maintenance.isHeldByCurrentThread()) {
            throw new IllegalStateException("install needs the table's maintenance lock");
        }
        if (dropped) {
            throw new IllegalStateException("table " + name + " was dropped during a placement operation");
        }
        TableVersion next = new TableVersion(expected.number() + 1,
                sameDivision ? expected.division() : expected.division() + 1, spec, parts, rangeBounds);
        if (!current.compareAndSet(expected, next)) {
            throw new IllegalStateException("table " + name + " changed during a placement operation");
        }
        retire(expected.parts(), parts);
        return next;
    }

    /** The latest commit number (inserts and upserts each make one). */
    public long committed() {
        return committed;
    }

    /**
     * Inserts rows (schema order; values as {@link RowValues} accepts) into the parts' deltas as one commit:
     * visible to snapshots taken after it returns, all or nothing.
     */
    public long insert(List<Object[]> rows) {
        return write(rows, -1, CommitHook.NONE);
    }

    /**
     * Inserts rows as one commit, calling {@code hook} with the checked rows while they are staged but not yet
     * visible, under the table's write lock (so hooks see commits in commit order); a hook that throws aborts the
     * insert.
     */
    public long insert(List<Object[]> rows, CommitHook hook) {
        return write(rows, -1, hook);
    }

    /**
     * Inserts rows, replacing any visible row with the same value in {@code keyColumn} (UPSERT by key), as one
     * commit. Later rows of the same statement win over earlier ones.
     */
    public long upsert(List<Object[]> rows, String keyColumn) {
        return write(rows, schema.indexOf(keyColumn), CommitHook.NONE);
    }

    private List<Object[]> normalizeAll(List<Object[]> rows) {
        List<Object[]> normalized = new ArrayList<>(rows.size());
        try {
            for (Object[] row : rows) {
                normalized.add(RowValues.normalize(schema, row));
            }
        } catch (NotNullViolationException e) {
            throw new NotNullViolationException(e.column(), name);
        }
        return normalized;
    }

    private void checkNotDropped() {
        if (dropped) {
            throw new IllegalStateException("table " + name + " was dropped");
        }
    }

    private long write(List<Object[]> rows, int keyColumn, CommitHook hook) {
        List<Object[]> normalized = normalizeAll(rows);
        maintenance.lock();
        try {
            checkNotDropped();
            TableVersion version = current.get();
            long commit = committed + 1;
            PendingCommit pending = new PendingCommit(version, commit);
            try {
                int[] upsertKey = keyColumn < 0 ? null : new int[] {keyColumn};
                for (Object[] row : normalized) {
                    TablePart part = version.parts().get(route(version, row));
                    if (upsertKey != null) {
                        for (TablePart candidate : partsHolding(version, upsertKey, row)) {
                            List<Long> existing = new ArrayList<>(1);
                            KeyLookup.find(candidate, upsertKey, new Object[] {row[keyColumn]}, commit,
                                    candidate.delta().appendedRows(), existing::add);
                            for (long r : existing) {
                                pending.delete(candidate, r);
                            }
                        }
                    }
                    checkKeyFree(version, row, commit);
                    pending.append(part, row);
                }
                return pending.publish(normalized, hook);
            } catch (RuntimeException | Error e) {
                pending.undo();
                throw e;
            }
        } finally {
            maintenance.unlock();
        }
    }

    /**
     * The parts that may hold rows with {@code row}'s values in {@code columns}: the one the row routes to when the
     * partitioning column is one of them (equal keys then route alike), else all.
     */
    private List<TablePart> partsHolding(TableVersion version, int[] columns, Object[] row) {
        String partitionColumn = version.spec().column();
        if (partitionColumn != null) {
            int p = schema.indexOf(partitionColumn);
            for (int c : columns) {
                if (c == p) {
                    return List.of(version.parts().get(route(version, row)));
                }
            }
        }
        return version.parts();
    }

    /**
     * The parts of {@code version} that may hold rows with {@code key} (physical values) in {@code columns}: the
     * one the key routes to when the partitioning column is among them, else all.
     */
    public List<TablePart> partsHoldingKey(TableVersion version, int[] columns, Object[] key) {
        Object[] row = new Object[schema.size()];
        for (int k = 0; k < columns.length; k++) {
            row[columns[k]] = key[k];
        }
        return partsHolding(version, columns, row);
    }

    /**
     * Throws {@link KeyViolationException} when the table already holds {@code row}'s value of its primary key or of
     * a unique index in a row that the commit being staged does not delete (its own earlier rows included).
     */
    private void checkKeyFree(TableVersion version, Object[] row, long commit) {
        for (UniqueKey unique : uniqueKeys) {
            int[] columns = unique.columns();
            Object[] key = new Object[columns.length];
            for (int k = 0; k < key.length; k++) {
                key[k] = row[columns[k]];
                if (key[k] == null) {
                    // NULL equals nothing, so a key with a NULL in it never conflicts.
                    key = null;
                    break;
                }
            }
            if (key == null) {
                continue;
            }
            for (TablePart part : partsHolding(version, columns, row)) {
                boolean[] found = new boolean[1];
                KeyLookup.find(part, columns, key, commit, part.delta().appendedRows(), r -> found[0] = true);
                if (found[0]) {
                    throw new KeyViolationException(name, unique.constraint(), schema, columns, row);
                }
            }
        }
    }

    private Object[] keyOf(Object[] row) {
        Object[] key = new Object[keyColumns.length];
        for (int k = 0; k < key.length; k++) {
            key[k] = row[keyColumns[k]];
        }
        return key;
    }

    /**
     * The visible row of a keyed table whose primary key is {@code key} (physical values in key order), as of the
     * latest commit, or null. Writers that decide on it hold {@link #maintenanceLock()} until they commit.
     */
    public Object[] rowWithKey(Object[] key) {
        if (keyColumns.length == 0) {
            throw new IllegalStateException("table " + name + " has no primary key");
        }
        return rowWithKey(keyColumns, key);
    }

    /**
     * A visible row whose values in {@code columns} are {@code key} (physical values), as of the latest commit, or
     * null; the first found when several are (the columns of a unique index or of the primary key have one).
     */
    public Object[] rowWithKey(int[] columns, Object[] key) {
        Object[] probe = new Object[schema.size()];
        for (int k = 0; k < columns.length; k++) {
            if (key[k] == null) {
                return null;
            }
            probe[columns[k]] = key[k];
        }
        probe = RowValues.normalizeKey(schema, probe, columns);
        Object[] normalized = new Object[columns.length];
        for (int k = 0; k < columns.length; k++) {
            normalized[k] = probe[columns[k]];
        }
        TableVersion version = current.get();
        long visible = committed;
        for (TablePart part : partsHolding(version, columns, probe)) {
            long[] found = {-1};
            KeyLookup.find(part, columns, normalized, visible, part.delta().visibleRows(visible),
                    r -> found[0] = found[0] < 0 ? r : found[0]);
            if (found[0] >= 0) {
                return rowOf(part, found[0]);
            }
        }
        return null;
    }

    /**
     * The keys no two rows may share, by constraint name: {@code table_pkey} for the primary key, then each unique
     * index, each with its columns' positions.
     */
    public Map<String, int[]> uniqueKeys() {
        Map<String, int[]> keys = new LinkedHashMap<>();
        for (UniqueKey key : uniqueKeys) {
            keys.put(key.constraint(), key.columns().clone());
        }
        return keys;
    }

    /**
     * Checks that no two visible rows share a value of the primary key or of a unique index (a bulk load's rows were
     * never checked one by one); throws {@link KeyViolationException} naming one duplicate.
     */
    public void checkKeysUnique() {
        for (UniqueKey unique : uniqueKeys) {
            checkUnique(unique);
        }
    }

    private void checkUnique(UniqueKey unique) {
        int[] columns = unique.columns();
        try (TableSnapshot snapshot = snapshot()) {
            List<TablePart> parts = snapshot.parts();
            String partitionColumn = snapshot.version().spec().column();
            boolean disjoint = parts.size() == 1 || partitionColumn != null
                    && Arrays.stream(columns).anyMatch(c -> c == schema.indexOf(partitionColumn));
            Set<List<Object>> seen = disjoint ? null : new HashSet<>();
            for (TablePart part : parts) {
                Set<List<Object>> inPart = new HashSet<>();
                long total = part.rows() + snapshot.deltaRows(part);
                MainKeyIndex index = part.rows() > 0 ? part.keyIndex(columns[0]) : null;
                boolean uniqueMain = index != null && columns.length == 1 && index.unique()
                        && !part.delta().hasDeletions() && total == part.rows();
                rows:
                for (long r = uniqueMain && seen == null ? part.rows() : 0; r < total; r++) {
                    if (!snapshot.isVisible(part, r)) {
                        continue;
                    }
                    Object[] row = new Object[schema.size()];
                    Object[] key = new Object[columns.length];
                    for (int k = 0; k < columns.length; k++) {
                        int c = columns[k];
                        row[c] = r < part.rows() ? part.column(c).boxedValue(r)
                                : part.delta().row((int) (r - part.rows()))[c];
                        if (row[c] == null) {
                            continue rows;
                        }
                        key[k] = row[c];
                    }
                    List<Object> values = Arrays.asList(key);
                    if (!inPart.add(values) || seen != null && !seen.add(values)) {
                        throw new KeyViolationException(name, unique.constraint(), schema, columns, row);
                    }
                }
            }
        }
    }

    /** A row's values (main rows first, then delta rows), schema order. */
    private Object[] rowOf(TablePart part, long r) {
        if (r >= part.rows()) {
            return part.delta().row((int) (r - part.rows())).clone();
        }
        Object[] row = new Object[schema.size()];
        for (int c = 0; c < row.length; c++) {
            row[c] = part.column(c).boxedValue(r);
        }
        return row;
    }

    /**
     * Removes one visible row equal to each of {@code removed} (equal rows cannot be told apart, so which of them
     * goes does not matter) and inserts {@code added}, as one commit: DELETE and UPDATE. {@code hook} sees the added
     * rows as stored. Throws {@link RowsChangedException} and changes nothing when a removed row is not there.
     * Callers that chose {@code removed} from a snapshot hold {@link #maintenanceLock()} from before that snapshot,
     * so no other writer can change the table in between.
     */
    public long replace(List<Object[]> removed, List<Object[]> added, CommitHook hook) {
        if (removed.isEmpty() && added.isEmpty()) {
            return committed;
        }
        Map<List<Object>, Integer> wanted = new HashMap<>();
        Set<Object> firstValues = new HashSet<>();
        for (Object[] row : removed) {
            Object[] stored = RowValues.normalize(schema, row);
            wanted.merge(Arrays.asList(stored), 1, Integer::sum);
            firstValues.add(stored[0]);
        }
        List<Object[]> normalized = normalizeAll(added);
        maintenance.lock();
        try {
            checkNotDropped();
            TableVersion version = current.get();
            long visible = committed;
            long commit = visible + 1;
            List<long[]> found = new ArrayList<>();
            int remaining = removed.size();
            if (keyColumns.length > 0) {
                remaining -= findByKey(version, wanted, visible, found);
            }
            // A keyed table's rows are found by key or not there at all.
            for (TablePart part : keyColumns.length > 0 ? List.<TablePart>of() : version.parts()) {
                if (remaining == 0) {
                    break;
                }
                PartDelta delta = part.delta();
                long main = part.rows();
                long total = main + delta.visibleRows(visible);
                for (long r = 0; r < total && remaining > 0; r++) {
                    if (delta.isDeleted(r, visible)) {
                        continue;
                    }
                    Object[] row;
                    if (r < main) {
                        if (!firstValues.contains(part.column(0).boxedValue(r))) {
                            continue;
                        }
                        row = new Object[schema.size()];
                        for (int c = 0; c < row.length; c++) {
                            row[c] = part.column(c).boxedValue(r);
                        }
                    } else {
                        row = delta.row((int) (r - main));
                    }
                    List<Object> key = Arrays.asList(row);
                    Integer n = wanted.get(key);
                    if (n != null && n > 0) {
                        wanted.put(key, n - 1);
                        found.add(new long[] {part.index(), r});
                        remaining--;
                    }
                }
            }
            if (remaining > 0) {
                throw new RowsChangedException(remaining + " row(s) of " + name + " that the statement read are no"
                        + " longer there: a concurrent statement changed them; nothing was changed");
            }
            PendingCommit pending = new PendingCommit(version, commit);
            try {
                for (long[] f : found) {
                    pending.delete(version.parts().get((int) f[0]), f[1]);
                }
                for (Object[] row : normalized) {
                    checkKeyFree(version, row, commit);
                    pending.append(version.parts().get(route(version, row)), row);
                }
                return pending.publish(normalized, hook);
            } catch (RuntimeException | Error e) {
                pending.undo();
                throw e;
            }
        } finally {
            maintenance.unlock();
        }
    }

    /**
     * Finds the rows of a keyed table that {@code wanted} (row values → how many) names, through the key index, and
     * takes them off {@code wanted}; returns how many were found.
     */
    private int findByKey(TableVersion version, Map<List<Object>, Integer> wanted, long visible, List<long[]> found) {
        int count = 0;
        for (Map.Entry<List<Object>, Integer> e : wanted.entrySet()) {
            Object[] row = e.getValue() > 0 ? e.getKey().toArray() : null;
            if (row == null) {
                continue;
            }
            for (TablePart part : partsHolding(version, keyColumns, row)) {
                List<Long> rows = new ArrayList<>(1);
                KeyLookup.find(part, keyColumns, keyOf(row), visible, part.delta().visibleRows(visible), rows::add);
                for (long r : rows) {
                    if (e.getValue() > 0 && Arrays.asList(rowOf(part, r)).equals(e.getKey())) {
                        e.setValue(e.getValue() - 1);
                        found.add(new long[] {part.index(), r});
                        count++;
                    }
                }
            }
        }
        return count;
    }

    /**
     * One commit being staged under the write lock: rows appended to parts' deltas and rows deleted, all invisible
     * until {@link #publish}, all taken back by {@link #undo}.
     */
    private final class PendingCommit {
        private final TableVersion version;
        private final long commit;
        private final Set<TablePart> touched = Collections.newSetFromMap(new IdentityHashMap<>());
        private final List<long[]> deleted = new ArrayList<>();

        PendingCommit(TableVersion version, long commit) {
            this.version = version;
            this.commit = commit;
        }

        void delete(TablePart part, long row) {
            part.delta().delete(row, commit);
            deleted.add(new long[] {part.index(), row});
        }

        void append(TablePart part, Object[] row) {
            part.delta().append(row);
            touched.add(part);
        }

        /** Lets {@code hook} see the added rows, then makes the commit visible; returns its number. */
        long publish(List<Object[]> added, CommitHook hook) {
            hook.beforePublish(added);
            for (TablePart part : touched) {
                part.delta().commit(commit);
            }
            committed = commit;
            return commit;
        }

        void undo() {
            for (TablePart part : touched) {
                part.delta().rollback();
            }
            for (long[] d : deleted) {
                version.parts().get((int) d[0]).delta().undelete(d[1], commit);
            }
        }
    }

    private int route(TableVersion version, Object[] row) {
        PartitionSpec spec = version.spec();
        return switch (spec) {
            case PartitionSpec.None n -> 0;
            case PartitionSpec.RoundRobin r -> (int) (roundRobin++ % version.parts().size());
            case PartitionSpec.Hash h -> PartitionRouter.hashPart(
                    row[schema.indexOf(h.column())], h);
            case PartitionSpec.Range r -> {
                Object key = row[schema.indexOf(r.column())];
                if (key == null) {
                    yield 0;
                }
                long k = (Long) key;
                int part = 0;
                for (long bound : version.rangeBounds()) {
                    if (bound <= k) {
                        part++;
                    }
                }
                yield part;
            }
        };
    }

    /** Marks the table dropped and releases its parts (freed once running queries finish). */
    void drop() {
        maintenance.lock();
        try {
            if (dropped) {
                return;
            }
            dropped = true;
            retire(current.get().parts(), List.of());
        } finally {
            maintenance.unlock();
        }
    }

    public boolean isDropped() {
        return dropped;
    }

    private static void retire(List<TablePart> old, List<TablePart> kept) {
        Set<TablePart> keep = Collections.newSetFromMap(new IdentityHashMap<>());
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
