package io.locusdb.natives.ffm;

/**
 * A failed call into libc or libnuma. Carries the function, the errno, its symbolic name and the C library's text,
 * so a log line says what went wrong without a man page.
 */
public final class NativeCallException extends RuntimeException {
    private final String function;
    private final int errno;

    public NativeCallException(String function, int errno, String detail) {
        super(function + " failed: " + Errno.name(errno) + " (" + LibC.strerror(errno) + ")"
                + (detail == null || detail.isEmpty() ? "" : " — " + detail));
        this.function = function;
        this.errno = errno;
    }

    public String function() {
        return function;
    }

    public int errno() {
        return errno;
    }

    public String errnoName() {
        return Errno.name(errno);
    }
}
