package io.locusdb.core.exec.stealing;

import io.locusdb.core.exec.AdaptiveStealing;
import io.locusdb.core.exec.StealingPolicy;
import io.locusdb.core.exec.TaskClass;
import java.util.Set;
import java.util.TreeSet;

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

    /**
     * Never steals tasks of the named classes across nodes (e.g. "iv-scan": memory-bound by construction), and asks
     * {@code others} about every other class.
     */
    public static StealingPolicy neverFor(Set<String> classNames, StealingPolicy others) {
        Set<String> names = Set.copyOf(classNames);
        return new StealingPolicy() {
            @Override
            public boolean maySteal(TaskClass taskClass, int ownerNode, int thiefNode) {
                return !names.contains(taskClass.name()) && others.maySteal(taskClass, ownerNode, thiefNode);
            }

            @Override
            public String describe() {
                return "never steal " + String.join(", ", new TreeSet<>(names)) + "; otherwise " + others.describe();
            }
        };
    }

    public static StealingPolicy adaptive(double thresholdBytesPerSecond) {
        return new AdaptiveStealing(thresholdBytesPerSecond);
    }
}
