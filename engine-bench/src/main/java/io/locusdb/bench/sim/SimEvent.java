package io.locusdb.bench.sim;

/**
 * A placement change in a simulated run: decided at {@code decidedSeconds}, started when the placer's single
 * actuator was free, done at {@code doneSeconds}.
 */
public record SimEvent(double decidedSeconds, double startSeconds, double doneSeconds, String action, String owner,
                       int partsBefore, int partsAfter, int fromNode, int toNode, String reason) {
}
