package io.locusdb.natives.memory;

/** {@code move_pages} is refused to this process (see {@link PageMoves}); the pages stayed where they were. */
public final class PageMovesRefusedException extends RuntimeException {
    public PageMovesRefusedException(String detail) {
        super("page moves are not permitted: " + detail);
    }
}
