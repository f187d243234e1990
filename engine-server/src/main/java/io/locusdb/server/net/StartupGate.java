package io.locusdb.server.net;

import io.netty.channel.Channel;

/**
 * Counts the connections that have not logged in yet (from accept until READY or close) and stops accepting while
 * {@code max-pending-startups} of them are open: further clients wait in the listen backlog instead of each costing
 * the server a connection, buffers and a startup timer. Accepting resumes as soon as one of them logs in or closes.
 */
final class StartupGate {
    private final int max;
    private Channel listener;
    private int pending;
    private boolean paused;

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

    private void toggle() {
        boolean pause = pending >= max;
        if (listener != null && pause != paused) {
            paused = pause;
            listener.config().setAutoRead(!pause);
        }
    }
}
