package io.locusdb.server.net;

import io.netty.channel.Channel;
import java.util.concurrent.RejectedExecutionException;

/**
 * Counts the connections that have not logged in yet (from accept until READY or close) and stops accepting while
 * {@code max-pending-startups} of them are open: further clients wait in the listen backlog instead of each costing
 * the server a connection, buffers and a startup timer. Accepting resumes as soon as one of them logs in or closes.
 *
 * <p>The listener's read interest is switched on its own event loop. A connection already accepted, or selected in the
 * same round, when the switch is made is still served, so the limit can be exceeded by that race. After
 * {@link #accepting()} reads false, no further connection is accepted until it reads true again.
 */
final class StartupGate {
    private final int max;
    private Channel listener;
    private int pending;
    private boolean paused;
    /** What the listener's event loop last applied: false once it no longer accepts. */
    private boolean accepting = true;

    StartupGate(int max) {
        this.max = max;
    }

    /** The listening channel to pause and resume (set once it is bound). */
    synchronized void listener(Channel serverChannel) {
        this.listener = serverChannel;
        toggle();
    }

    synchronized void enter() {
        pending++;
        toggle();
    }

    synchronized void leave() {
        pending--;
        toggle();
    }

    synchronized int pending() {
        return pending;
    }

    int max() {
        return max;
    }

    /** False once the listener has stopped accepting (see the class comment). */
    synchronized boolean accepting() {
        return accepting;
    }

    private void toggle() {
        boolean pause = pending >= max;
        if (listener != null && pause != paused) {
            paused = pause;
            // On the listener's loop, clearing auto-read removes its accept interest at once; from another thread
            // it is only scheduled, and a connection arriving meanwhile would be accepted.
            try {
                listener.eventLoop().execute(this::apply);
            } catch (RejectedExecutionException e) {
                // The server is shutting down and its listener's loop is gone: there is nothing left to switch.
            }
        }
    }

    /** Applies the latest state (tasks run in order, so the last one leaves the listener as {@code paused} says). */
    private void apply() {
        boolean pause;
        Channel channel;
        synchronized (this) {
            pause = paused;
            channel = listener;
        }
        channel.config().setAutoRead(!pause);
        synchronized (this) {
            accepting = !pause;
        }
    }
}
