package io.locusdb.bench.sim;

import java.util.Locale;

/**
 * A placement change in a simulated run: decided at {@code decidedSeconds}, started when the placer's single
 * actuator was free, done at {@code doneSeconds}.
 */
public record SimEvent(double decidedSeconds, double startSeconds, double doneSeconds, String action, String owner,
                       int partsBefore, int partsAfter, int fromNode, int toNode, String reason) {
    /** One line for a console: when it started, what changed, when it was done and why. */
    public String line() {
        return String.format(Locale.ROOT, "%6.1f s %-9s %s (%d -> %d parts) node %d -> %d, done at %.1f s: %s",
                startSeconds, action, owner, partsBefore, partsAfter, fromNode, toNode, doneSeconds, reason);
    }
}
