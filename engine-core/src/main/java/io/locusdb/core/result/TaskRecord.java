package io.locusdb.core.result;

/** Where one task of a query ran: its class, the table part it worked on, the part's node and the worker's. */
public record TaskRecord(String taskClass, int part, int homeNode, int ranOnNode, boolean stolen, long rows) {
}
