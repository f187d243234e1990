package io.locusdb.core.storage.load;

/**
 * A load that stopped on bad input: where (file, line, column) and why. Nothing of the table it was loading is left
 * behind when this is thrown.
 */
public final class LoadException extends RuntimeException {
    private final String source;
    private final long line;
    private final String column;

    public LoadException(String source, long line, String column, String reason) {
        super(source + (line > 0 ? ":" + line : "") + (column != null ? ", column " + column : "") + ": " + reason);
        this.source = source;
        this.line = line;
        this.column = column;
    }

    public LoadException(String source, String reason, Throwable cause) {
        super(source + ": " + reason, cause);
        this.source = source;
        this.line = 0;
        this.column = null;
    }

    public String source() {
        return source;
    }

    /** 1-based line number, 0 if not tied to a line. */
    public long line() {
        return line;
    }

    /** The column ("3 (l_quantity)"), or null. */
    public String column() {
        return column;
    }
}
