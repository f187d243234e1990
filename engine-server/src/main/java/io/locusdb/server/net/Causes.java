package io.locusdb.server.net;

/** Looks through an exception's causes for one of a type (bounded: a cause chain may loop). */
final class Causes {
    private Causes() {
    }

    static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (int depth = 0; e != null && depth < 16; e = e.getCause(), depth++) {
            if (type.isInstance(e)) {
                return type.cast(e);
            }
        }
        return null;
    }
}
