package io.locusdb.core.placer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The placement events of a database, newest last, bounded (the oldest go first), with listeners for metrics and
 * logs. Appended to a few times a second at most: a lock is fine.
 */
public final class PlacerEventLog {
    public static final int DEFAULT_CAPACITY = 10_000;

    private final int capacity;
    private final ArrayDeque<PlacerEvent> events = new ArrayDeque<>();
    private final List<Consumer<PlacerEvent>> listeners = new CopyOnWriteArrayList<>();
    private long sequence;
    /** Events ever appended, by action, source (placer, operator) and outcome (done, failed): never dropped. */
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    public PlacerEventLog() {
        this(DEFAULT_CAPACITY);
    }

    public PlacerEventLog(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.capacity = capacity;
    }

    /** Numbers the event ({@link PlacerEvent#sequence()} is ignored), keeps it and tells the listeners. */
    public PlacerEvent append(PlacerEvent event) {
        PlacerEvent numbered;
        synchronized (this) {
            numbered = new PlacerEvent(++sequence, event.time(), event.action(), event.source(), event.owner(),
                    event.group(), event.partsBefore(), event.partsAfter(), event.part(), event.fromNode(),
                    event.toNode(), event.reason(), event.millis(), event.pages(), event.method(),
                    event.error());
            if (events.size() == capacity) {
                events.removeFirst();
            }
            events.addLast(numbered);
        }
        counts.computeIfAbsent(countKey(numbered.action(), numbered.source(), numbered.succeeded()),
                k -> new LongAdder()).increment();
        for (Consumer<PlacerEvent> listener : listeners) {
            listener.accept(numbered);
        }
        return numbered;
    }

    public synchronized List<PlacerEvent> events() {
        return new ArrayList<>(events);
    }

    /** Events numbered after {@code sequence}. */
    public synchronized List<PlacerEvent> since(long sequence) {
        List<PlacerEvent> out = new ArrayList<>();
        for (PlacerEvent e : events) {
            if (e.sequence() > sequence) {
                out.add(e);
            }
        }
        return out;
    }

    /** How many events of this action, source and outcome were ever appended (the log itself is bounded). */
    public long count(PlacerEvent.Action action, String source, boolean succeeded) {
        LongAdder n = counts.get(countKey(action, source, succeeded));
        return n == null ? 0 : n.sum();
    }

    private static String countKey(PlacerEvent.Action action, String source, boolean succeeded) {
        return action + "/" + source + "/" + succeeded;
    }

    public void addListener(Consumer<PlacerEvent> listener) {
        listeners.add(listener);
    }
}
