package io.locusdb.bench.sim;

import java.util.Locale;

/**
 * One ratio of a reproduction against the paper's: {@code ok} within ±20 % of it ({@code atLeast}: when the paper
 * states a lower bound, anything from 20 % below it up).
 */
public record Check(String name, double measured, double paper, boolean atLeast) {
    public static final double TOLERANCE = 0.20;

    public boolean ok() {
        if (atLeast) {
            return measured >= paper * (1 - TOLERANCE);
        }
        return Math.abs(measured - paper) <= TOLERANCE * paper;
    }

    /** The line scripts read: {@code check NAME measured=X paper=Y ok|off}. */
    public String line() {
        return String.format(Locale.ROOT, "check %s measured=%.3f paper=%.3f %s", name, measured,
                paper, ok() ? "ok" : "off");
    }
}
