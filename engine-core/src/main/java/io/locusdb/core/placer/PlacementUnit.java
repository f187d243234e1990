package io.locusdb.core.placer;

/**
 * What the placer moves and partitions: one part of a table, or one part of a table group (the same part of every
 * table in it, kept together on one node), with its utilization histories.
 *
 * @param owner   the table's or table group's name
 * @param group   whether the owner is a table group
 * @param part    the part's index among the owner's parts
 * @param node    the node the part's memory is on
 * @param pages   the part's memory pages (for a group part: the most of any of its tables' parts, since they move
 *                in parallel)
 * @param parts   how many parts the owner has now
 * @param threads threads in use by tasks on the part's own node
 * @param memory  estimated memory throughput of those tasks (bytes per second)
 */
public record PlacementUnit(String owner, boolean group, int part, int node, long pages, int parts,
                            UtilizationHistory threads, UtilizationHistory memory) {
    /** The owner as one key: tables and groups live in different name spaces. */
    public String ownerKey() {
        return (group ? "group " : "table ") + owner;
    }
}
