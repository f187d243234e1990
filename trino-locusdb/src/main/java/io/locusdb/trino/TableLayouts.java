package io.locusdb.trino;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds how a table is partitioned across the catalog, from what the servers report of its parts
 * ({@code locus_tables.partitioning}, {@code locus_parts.key_min/key_max/key_nulls}). A table has a layout only where
 * every value of its key provably lives in one bucket (one part on one server): the same HASH or RANGE partitioning
 * by an integer key with the same part count on every server that holds it, no NULL key (NULLs would be a group
 * spread over buckets), and key ranges that do not overlap between servers (and, for RANGE, between parts). The
 * ranges of a table group's tables are taken together, so that every table of the group gets the same layout and
 * Trino sees them co-partitioned: {@code orders ⋈ lineitem} on the group key needs no exchange.
 */
final class TableLayouts {
    private static final Pattern SPEC = Pattern.compile("(HASH|RANGE)\\((\\w+)\\) PARTITIONS (\\d+)");
    private final LocusCatalog catalog;

    TableLayouts(LocusCatalog catalog) {
        this.catalog = catalog;
    }

    /** A table's partitioning and the column it is partitioned by. */
    record Layout(LocusPartitioningHandle handle, String keyColumn) {
    }

    private record Spec(boolean hashed, String key, int parts, String group) {
    }

    /** {@code table}'s layout as {@code state} shows the servers, if it has one. */
    Optional<Layout> of(LocusCatalog.State state, String table) {
        List<LocusCatalog.Holding> own = state.holdings(table);
        Spec spec = commonSpec(own);
        if (spec == null) {
            return Optional.empty();
        }
        Map<String, List<LocusCatalog.Holding>> members = new LinkedHashMap<>();
        members.put(table, own);
        if (spec.group() != null) {
            for (String member : state.groupMembers(spec.group())) {
                if (!member.equals(table)) {
                    List<LocusCatalog.Holding> holdings = state.holdings(member);
                    Spec other = commonSpec(holdings);
                    if (other == null || other.hashed() != spec.hashed() || other.parts() != spec.parts()
                            || !spec.group().equals(other.group())) {
                        return Optional.empty();
                    }
                    members.put(member, holdings);
                }
            }
        }
        List<String> servers = new ArrayList<>();
        for (List<LocusCatalog.Holding> holdings : members.values()) {
            for (LocusCatalog.Holding h : holdings) {
                if (!servers.contains(h.server())) {
                    servers.add(h.server());
                }
            }
        }
        // In catalog order, whichever table listed a server first.
        List<String> order = catalog.serverOrder();
        servers.sort(Comparator.comparingInt(order::indexOf));
        // bucket (or, hashed, a server's first bucket) -> {low, high} over every table of the group
        TreeMap<Integer, long[]> bounds = new TreeMap<>();
        for (List<LocusCatalog.Holding> holdings : members.values()) {
            for (LocusCatalog.Holding h : holdings) {
                int first = servers.indexOf(h.server()) * spec.parts();
                for (LocusCatalog.Part p : h.parts()) {
                    if (p.keyNulls() == null || p.keyNulls() != 0) {
                        return Optional.empty();
                    }
                    if (p.keyMin() == null) {
                        continue;
                    }
                    int bucket = spec.hashed() ? first : first + p.part();
                    bounds.merge(bucket, new long[] {p.keyMin(), p.keyMax()},
                            (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
                }
            }
        }
        if (bounds.isEmpty()) {
            return Optional.empty();
        }
        List<LocusPartitioningHandle.KeyRange> ranges = new ArrayList<>();
        bounds.forEach((bucket, range) -> ranges.add(new LocusPartitioningHandle.KeyRange(range[0], range[1], bucket)));
        ranges.sort(Comparator.comparingLong(LocusPartitioningHandle.KeyRange::low));
        for (int i = 1; i < ranges.size(); i++) {
            if (ranges.get(i).low() <= ranges.get(i - 1).high()) {
                return Optional.empty();
            }
        }
        return Optional.of(new Layout(new LocusPartitioningHandle(spec.hashed(), servers, spec.parts(), ranges),
                spec.key()));
    }

    /** The partitioning every holding agrees on, or null when they differ or it is not by a key. */
    private static Spec commonSpec(List<LocusCatalog.Holding> holdings) {
        Spec common = null;
        for (LocusCatalog.Holding h : holdings) {
            if (h.partitioning() == null) {
                return null;
            }
            Matcher m = SPEC.matcher(h.partitioning());
            if (!m.matches()) {
                return null;
            }
            Spec spec = new Spec(m.group(1).equals("HASH"), m.group(2).toLowerCase(Locale.ROOT),
                    Integer.parseInt(m.group(3)), h.group());
            if (spec.parts() != h.parts().size() || common != null && !common.equals(spec)) {
                return null;
            }
            common = spec;
        }
        return common;
    }
}
