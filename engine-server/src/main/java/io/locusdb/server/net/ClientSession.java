package io.locusdb.server.net;

/**
 * What the server needs of a logged-in session, whichever protocol it speaks: cancelling its running statement
 * (a cancel request, shutdown), telling it the server goes down, and whether it is idle.
 */
interface ClientSession {
    long id();

    long cancelKey();

    /** A statement runs, a result is open or requests wait. */
    boolean busy();

    /** Stops the running statement or open result; does nothing when there is none. */
    void stopResult(ResultStream.Stop reason);

    /** Sends NOTICE 57P01 (the server shuts down; running statements may finish within the grace period). */
    void shutdownNotice(String message);
}
