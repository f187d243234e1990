package io.locusdb.core.storage.type;

/** A text value that does not fit its column's type; the message says why. */
public final class ValueFormatException extends IllegalArgumentException {
    public ValueFormatException(String message) {
        super(message);
    }
}
