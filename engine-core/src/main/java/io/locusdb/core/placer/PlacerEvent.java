package io.locusdb.core.placer;

import java.time.Instant;
import java.util.Locale;

/**
 * One placement change, decided by the placer or asked for by an operator ({@code ALTER TABLE ... MOVE}), as it is
 * kept in {@code locus_placer_events}, counted in the metrics and logged.
 *
 * @param sequence  increasing number of the event in this database
 * @param time      when the action ended
 * @param action    move, partition or merge
 * @param source    {@code placer} or {@code operator}
 * @param owner     the table's or table group's name
 * @param group     whether the owner is a table group
 * @param partsBefore the owner's parts before
 * @param partsAfter  the owner's parts after
 * @param part      the part acted on (-1: all of them)
 * @param fromNode  the node the data left (-1: several or unknown)
 * @param toNode    the node the data went to
 * @param reason    why: both nodes' utilization, their imbalance, the unit's own, the rule that applied
 * @param millis    how long the action took
 * @param pages     pages written on the target node(s)
 * @param method    how the data got there: {@code copy}, {@code migrate} (pages moved in place), or
 *                  {@code copy (page moves not permitted)} where a migration had to fall back to a copy
 * @param error     why the action failed, or null when it succeeded
 */
public record PlacerEvent(long sequence, Instant time, Action action, String source, String owner, boolean group,
                          int partsBefore, int partsAfter, int part, int fromNode, int toNode, String reason,
                          double millis, long pages, String method, String error) {
    /** What the placement change was. */
    public enum Action {
        MOVE, PARTITION, MERGE;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public static final String PLACER = "placer";
    public static final String OPERATOR = "operator";

    public boolean succeeded() {
        return error == null;
    }
}
