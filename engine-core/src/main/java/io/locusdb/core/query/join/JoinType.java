package io.locusdb.core.query.join;

/** How a join combines its sides (SEMI and ANTI keep left rows only). */
public enum JoinType {
    INNER, LEFT, RIGHT, FULL, SEMI, ANTI;

    /** Whether left rows without a match are kept (null-extended). */
    public boolean keepsUnmatchedLeft() {
        return this == LEFT || this == FULL;
    }

    /** Whether right rows without a match are kept (null-extended). */
    public boolean keepsUnmatchedRight() {
        return this == RIGHT || this == FULL;
    }

    /** Whether the output holds the right side's columns. */
    public boolean outputsRight() {
        return this != SEMI && this != ANTI;
    }
}
