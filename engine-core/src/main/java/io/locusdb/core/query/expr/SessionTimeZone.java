package io.locusdb.core.query.expr;

import io.locusdb.core.storage.type.TimeZones;
import java.time.ZoneId;
import java.util.function.Supplier;

/**
 * The time zone of the session whose statement is being planned or run, bound by the query engine around each
 * statement ({@link #in}): expressions that read or show TIMESTAMP WITH TIME ZONE on a wall clock (casts to and from
 * text, TIMESTAMP and DATE, EXTRACT, date_trunc, month arithmetic) take it when they are compiled. Plans kept across
 * sessions (the plan cache) must not hold such an expression folded: while constants are folded the zone is
 * unknown ({@link #unknown}), and asking for it then throws {@link ZoneNotKnown}.
 */
public final class SessionTimeZone {
    private static final ScopedValue<ZoneId> ZONE = ScopedValue.newInstance();
    /** Bound while folding constants into a plan that outlives the statement. */
    private static final ScopedValue<Boolean> FOLDING = ScopedValue.newInstance();

    private SessionTimeZone() {
    }

    /** The zone of the statement being planned: the server's default where none is bound. */
    public static ZoneId get() {
        if (FOLDING.orElse(false)) {
            throw new ZoneNotKnown();
        }
        return ZONE.orElse(TimeZones.DEFAULT);
    }

    /** Runs {@code work} with {@code zone} as the session's. */
    public static <T> T in(ZoneId zone, Supplier<T> work) {
        return ScopedValue.where(ZONE, zone).call(work::get);
    }

    /** Runs {@code work} where no zone may be asked for: the zone of the plan's later runs is not known yet. */
    public static <T> T unknown(Supplier<T> work) {
        return ScopedValue.where(FOLDING, true).call(work::get);
    }

    /** An expression's value depends on the session's time zone, which is not known where it was asked for. */
    public static final class ZoneNotKnown extends RuntimeException {
        ZoneNotKnown() {
            super("the session's time zone is not known while folding constants", null, false, false);
        }
    }
}
