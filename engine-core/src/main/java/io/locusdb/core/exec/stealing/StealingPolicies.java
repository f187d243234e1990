package io.locusdb.core.exec.stealing;

import io.locusdb.core.exec.TaskClass;

/** The fixed policies the calibration experiment compares, and the adaptive one it calibrates. */
public final class StealingPolicies {
    private StealingPolicies() {
    }

    public static StealingPolicy always() {
        return new StealingPolicy() {
            @Override
            public boolean maySteal(TaskClass taskClass, int ownerNode, int thiefNode) {
                return true;
            }

            @Override
            public String describe() {
                return "always steal";
            }
        };
    }

    public static StealingPolicy never() {
        return new StealingPolicy() {
            @Override
            public boolean maySteal(TaskClass taskClass, int ownerNode, int thiefNode) {
                return false;
            }

            @Override
            public String describe() {
                return "never steal across nodes";
            }
        };
    }

    public static StealingPolicy adaptive(double thresholdBytesPerSecond) {
        return new AdaptiveStealing(thresholdBytesPerSecond);
    }
}
