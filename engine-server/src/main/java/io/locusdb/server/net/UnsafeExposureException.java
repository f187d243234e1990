package io.locusdb.server.net;

/**
 * A configuration that would expose the server without authentication (trust mode on a network address): refused
 * before anything starts, naming the setting and the ways to fix it.
 */
public final class UnsafeExposureException extends IllegalArgumentException {
    public UnsafeExposureException(String message) {
        super(message);
    }
}
