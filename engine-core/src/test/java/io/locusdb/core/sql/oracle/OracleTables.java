package io.locusdb.core.sql.oracle;

import io.locusdb.core.LocusConfig;
import io.locusdb.core.LocusDB;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.load.LoadProgress;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.load.TpchSchemas;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.PartPlacement;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TablePartBuilder;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.TypeKind;
import io.trino.tpch.LineItem;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchTable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The data of the oracle tests, put identically into LocusDB and DuckDB: TPC-H lineitem, and {@code mixed}, a
 * table of every type with NULLs in every nullable column (main rows in two parts on the two fake nodes, plus rows
 * inserted afterwards that stay in the parts' deltas).
 *
 * <p>Rows are built as logical Java values (Integer/Long, BigDecimal, Double, String, LocalDate, LocalDateTime,
 * Boolean, null); {@link #physical} turns them into what LocusDB stores (DECIMAL as the unscaled long, DATE as epoch
 * days, TIMESTAMP as epoch microseconds).
 */
final class OracleTables {
    static final String MIXED = "mixed";
    static final String MIXED_EMPTY = "mixed_empty";

    static final Schema MIXED_SCHEMA = Schema.of(
            ColumnDef.notNull("id", ColumnType.BIGINT),
            ColumnDef.of("i", ColumnType.INTEGER),
            ColumnDef.of("b", ColumnType.BIGINT),
            ColumnDef.of("d", ColumnType.decimal(12, 2)),
            ColumnDef.of("x", ColumnType.DOUBLE),
            ColumnDef.of("s", ColumnType.VARCHAR),
            ColumnDef.of("dt", ColumnType.DATE),
            ColumnDef.of("flag", ColumnType.BOOLEAN),
            ColumnDef.of("ts", ColumnType.TIMESTAMP));

    /** Main rows per part of {@code mixed}, and the delta rows inserted per commit (three commits). */
    static final int MIXED_ROWS_PER_PART = 2000;
    static final int MIXED_DELTA_ROWS_PER_COMMIT = 100;
    static final int MIXED_DELTA_COMMITS = 3;

    /** The strings of {@code mixed.s}: 20 values, the empty string among them. Rows with 'nulls' are NULL elsewhere. */
    static final List<String> STRINGS = List.of("", "a", "ab", "abc", "abd", "b", "ba", "bab", "Alpha", "alpha",
            "ALPHA", "beta", "gamma", "hello world", "x_y", "100", "99", "zeta", "Zeta", "nulls");
    static final String ALL_NULL_STRING = "nulls";

    static final LocalDate FIRST_DATE = LocalDate.of(1992, 1, 1);
    static final int DATE_SPAN_DAYS = 2922; // to 1999-12-31
    /** The first and last day of {@code mixed.ts} (a span that crosses leap days and month ends). */
    static final LocalDateTime FIRST_TIMESTAMP = FIRST_DATE.atStartOfDay();
    static final LocalDateTime LAST_TIMESTAMP = FIRST_DATE.plusDays(DATE_SPAN_DAYS).atTime(23, 59, 59, 999_999_000);
    static final int I_BOUND = 300;
    static final long B_BOUND = 1_000_000_000_000L;
    static final long D_BOUND_CENTS = 10_000_000L; // |d| <= 100000.00
    static final double X_BOUND = 1000;

    /** Lineitem rows inserted after the load (so they sit in deltas), and the line number that marks them. */
    static final int LINEITEM_DELTA_ROWS = 200;
    static final int LINEITEM_DELTA_LINENUMBER = 8;

    private OracleTables() {
    }

    /** An embedded LocusDB on the fake two-node topology, workers unpinned (the machine has few cores). */
    static LocusDB openLocus() {
        return LocusDB.open(LocusConfig.of(TestStorage.twoNodes()).withExecutor(b -> b.pinWorkers(false))
                .withLoadThreads(2));
    }

    /** The rows of {@code mixed}: main rows (the first half goes to part 0) and the delta commits. */
    record MixedData(List<Object[]> main, List<List<Object[]>> deltaCommits) {
        List<Object[]> all() {
            List<Object[]> all = new ArrayList<>(main);
            deltaCommits.forEach(all::addAll);
            return all;
        }
    }

    static MixedData mixedData(long seed) {
        Random r = new Random(seed);
        // Pools so that grouping finds repeated values.
        long[] bPool = new long[200];
        for (int k = 0; k < bPool.length; k++) {
            bPool[k] = k < 20 ? k - 10 : r.nextLong(-B_BOUND, B_BOUND + 1);
        }
        long[] dPool = new long[300];
        for (int k = 0; k < dPool.length; k++) {
            dPool[k] = k < 30 ? (k - 15) * 25 : r.nextLong(-D_BOUND_CENTS, D_BOUND_CENTS + 1);
        }
        double[] xPool = new double[500];
        for (int k = 0; k < xPool.length; k++) {
            // Mostly multiples of 1/8 (exact in binary, so sums are exact), some tenths (inexact).
            xPool[k] = k % 10 < 7 ? r.nextInt(-8000, 8001) / 8.0 : r.nextInt(-10000, 10001) / 10.0;
        }
        xPool[0] = 0.0;
        LocalDate[] datePool = new LocalDate[400];
        for (int k = 0; k < datePool.length; k++) {
            datePool[k] = FIRST_DATE.plusDays(r.nextInt(DATE_SPAN_DAYS));
        }
        // Timestamps come from their own stream, so the other columns keep the values they had before ts existed.
        Random tr = new Random(seed ^ 0x7157_7157L);
        LocalDateTime[] timestampPool = new LocalDateTime[500];
        for (int k = 0; k < timestampPool.length; k++) {
            timestampPool[k] = randomTimestamp(tr);
        }
        List<Object[]> main = new ArrayList<>();
        long id = 1;
        for (int k = 0; k < 2 * MIXED_ROWS_PER_PART; k++) {
            main.add(withTimestamp(mixedRow(r, id++, bPool, dPool, xPool, datePool), tr, timestampPool));
        }
        List<List<Object[]>> deltas = new ArrayList<>();
        id = 100_001;
        for (int c = 0; c < MIXED_DELTA_COMMITS; c++) {
            List<Object[]> commit = new ArrayList<>();
            for (int k = 0; k < MIXED_DELTA_ROWS_PER_COMMIT; k++) {
                commit.add(withTimestamp(mixedRow(r, id++, bPool, dPool, xPool, datePool), tr, timestampPool));
            }
            deltas.add(commit);
        }
        return new MixedData(main, deltas);
    }

    /**
     * A time that hits the cases that break: midnight, the last day of a month, whole seconds, whole
     * milliseconds and odd microseconds.
     */
    private static LocalDateTime randomTimestamp(Random r) {
        LocalDate day = FIRST_DATE.plusDays(r.nextInt(DATE_SPAN_DAYS + 1));
        if (r.nextInt(8) == 0) {
            day = day.withDayOfMonth(day.lengthOfMonth());
        }
        return switch (r.nextInt(5)) {
            case 0 -> day.atStartOfDay();
            case 1 -> day.atTime(r.nextInt(24), r.nextInt(60), r.nextInt(60));
            case 2 -> day.atTime(r.nextInt(24), r.nextInt(60), r.nextInt(60), r.nextInt(1000) * 1_000_000);
            default -> day.atStartOfDay().plusNanos(r.nextLong(86_400_000_000L) * 1_000);
        };
    }

    /** The row with its {@code ts}: NULL where the row is all NULLs, else mostly from a pool (groups repeat). */
    private static Object[] withTimestamp(Object[] row, Random r, LocalDateTime[] pool) {
        Object[] out = Arrays.copyOf(row, row.length + 1);
        boolean allNull = ALL_NULL_STRING.equals(row[5]);
        double p = r.nextDouble();
        out[row.length] = allNull || p < 0.10 ? null : p < 0.7 ? pool[r.nextInt(pool.length)] : randomTimestamp(r);
        return out;
    }

    private static Object[] mixedRow(Random r, long id, long[] bPool, long[] dPool, double[] xPool,
                                     LocalDate[] datePool) {
        String s = r.nextDouble() < 0.08 ? null : STRINGS.get(r.nextInt(STRINGS.size()));
        if (ALL_NULL_STRING.equals(s)) {
            return new Object[] {id, null, null, null, null, s, null, null};
        }
        Integer i = r.nextDouble() < 0.12 ? null
                : r.nextDouble() < 0.3 ? r.nextInt(10) : r.nextInt(-I_BOUND, I_BOUND + 1);
        Long b = r.nextDouble() < 0.10 ? null : bPool[r.nextInt(bPool.length)];
        BigDecimal d = r.nextDouble() < 0.10 ? null : BigDecimal.valueOf(dPool[r.nextInt(dPool.length)], 2);
        Double x = r.nextDouble() < 0.10 ? null : xPool[r.nextInt(xPool.length)];
        LocalDate dt = r.nextDouble() < 0.10 ? null : datePool[r.nextInt(datePool.length)];
        Boolean flag = r.nextDouble() < 0.15 ? null : r.nextBoolean();
        return new Object[] {id, i, b, d, x, s, dt, flag};
    }

    /** Registers {@code mixed} in LocusDB: two parts bound to nodes 0 and 1, then the delta commits. */
    static Table registerMixed(LocusDB db, MixedData data) {
        List<TablePart> parts = new ArrayList<>();
        int half = data.main().size() / 2;
        for (int p = 0; p < 2; p++) {
            TablePartBuilder builder = new TablePartBuilder(MIXED_SCHEMA);
            for (Object[] row : data.main().subList(p * half, p == 0 ? half : data.main().size())) {
                builder.appendRow(physical(MIXED_SCHEMA, row));
            }
            parts.add(builder.build(p, db.memory(), PartPlacement.boundTo(p % db.topology().nodeCount())));
        }
        Table table = db.catalog().register(new Table(MIXED, MIXED_SCHEMA, new PartitionSpec.RoundRobin(2), parts,
                List.of()));
        for (List<Object[]> commit : data.deltaCommits()) {
            table.insert(physicalRows(MIXED_SCHEMA, commit));
        }
        return table;
    }

    /** An empty table with mixed's schema, in LocusDB. */
    static Table registerMixedEmpty(LocusDB db) {
        return db.catalog().createTable(MIXED_EMPTY, MIXED_SCHEMA, new PartitionSpec.RoundRobin(2),
                new InitialPlacement.RoundRobin(), null);
    }

    /** {@code mixed} (all rows) and {@code mixed_empty} in DuckDB. */
    static void loadMixed(DuckOracle duck, MixedData data) {
        duck.createTable(MIXED, MIXED_SCHEMA);
        duck.insert(MIXED, MIXED_SCHEMA, data.all());
        duck.createTable(MIXED_EMPTY, MIXED_SCHEMA);
    }

    /** TPC-H lineitem at {@code sf} in {@code parts} range parts (part i on node i mod 2), registered. */
    static Table registerLineitem(LocusDB db, double sf, int parts) {
        return db.catalog().register(new TpchLoader(db.memory(), 2).generate(TpchTable.LINE_ITEM, sf, parts,
                new InitialPlacement.RoundRobin(), LoadProgress.NONE));
    }

    static Schema lineitemSchema() {
        return TpchSchemas.schemaOf(TpchTable.LINE_ITEM);
    }

    /**
     * Extra lineitem rows for the delta: generator rows with a random order key in the table's key range (so
     * they are routed to every range part) and line number 8, which the generator never uses.
     */
    static List<Object[]> lineitemDeltaRows(double sf, long seed) {
        Random r = new Random(seed);
        List<TpchColumn<LineItem>> columns = TpchTable.LINE_ITEM.getColumns();
        long maxOrderKey = Math.max(8, (long) (6_000_000 * sf));
        List<Object[]> rows = new ArrayList<>();
        for (LineItem item : TpchTable.LINE_ITEM.createGenerator(sf, 3, 7)) {
            Object[] row = new Object[columns.size()];
            for (int c = 0; c < row.length; c++) {
                TpchColumn<LineItem> column = columns.get(c);
                row[c] = switch (column.getType().getBase()) {
                    case IDENTIFIER -> column.getIdentifier(item);
                    case INTEGER -> column.getInteger(item);
                    case DATE -> LocalDate.ofEpochDay(column.getDate(item));
                    case DOUBLE -> BigDecimal.valueOf(column.getIdentifier(item), 2);
                    case VARCHAR -> column.getString(item);
                };
            }
            row[0] = r.nextLong(1, maxOrderKey + 1);
            row[3] = LINEITEM_DELTA_LINENUMBER;
            rows.add(row);
            if (rows.size() == LINEITEM_DELTA_ROWS) {
                break;
            }
        }
        return rows;
    }

    /**
     * A logical row as LocusDB stores it: DECIMAL unscaled at the column's scale, DATE as epoch days, TIMESTAMP as
     * epoch microseconds.
     */
    static Object[] physical(Schema schema, Object[] row) {
        Object[] out = new Object[row.length];
        for (int c = 0; c < row.length; c++) {
            Object v = row[c];
            ColumnType type = schema.column(c).type();
            out[c] = switch (v) {
                case null -> null;
                case BigDecimal d -> d.setScale(type.scale()).unscaledValue().longValueExact();
                // DuckDB's results carry a TIMESTAMP at midnight as a LocalDate (see DuckOracle.normalize).
                case LocalDate date -> type.kind() == TypeKind.TIMESTAMP ? Timestamps.of(date.atStartOfDay())
                        : date.toEpochDay();
                case LocalDateTime time -> Timestamps.of(time);
                case Integer i -> (long) i;
                default -> v;
            };
        }
        return out;
    }

    static List<Object[]> physicalRows(Schema schema, List<Object[]> rows) {
        List<Object[]> out = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            out.add(physical(schema, row));
        }
        return out;
    }

    /** Every visible row of a LocusDB table in physical values (main rows, then delta rows, part by part). */
    static List<List<Object>> storedRows(Table table) {
        List<List<Object>> rows = new ArrayList<>();
        try (TableSnapshot snapshot = table.snapshot()) {
            for (TablePart part : snapshot.parts()) {
                long total = part.rows() + snapshot.deltaRows(part);
                for (long r = 0; r < total; r++) {
                    if (!snapshot.isVisible(part, r)) {
                        continue;
                    }
                    Object[] row = new Object[part.columns().size()];
                    for (int c = 0; c < row.length; c++) {
                        row[c] = r < part.rows() ? part.column(c).boxedValue(r)
                                : part.delta().row((int) (r - part.rows()))[c];
                    }
                    rows.add(Arrays.asList(row));
                }
            }
        }
        return rows;
    }
}
