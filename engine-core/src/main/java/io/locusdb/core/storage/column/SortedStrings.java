package io.locusdb.core.storage.column;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * String entries in sorted order with their repeats marked, cut into groups that share no value: what a
 * {@link StringDictionary} is written from, one task per group.
 */
final class SortedStrings implements AutoCloseable {
    private final ContiguousStrings strings;
    private final int[] entryAt;
    private final int[] order;
    private final byte[] repeat;
    private final int[] groupStart;
    private final int[] groupDistinct;
    private final long[] groupBytes;

    SortedStrings(ContiguousStrings strings, int[] entryAt, int[] order, byte[] repeat, int[] groupStart, int[] groupDistinct,
                  long[] groupBytes) {
        this.strings = strings;
        this.entryAt = entryAt;
        this.order = order;
        this.repeat = repeat;
        this.groupStart = groupStart;
        this.groupDistinct = groupDistinct;
        this.groupBytes = groupBytes;
    }

    int distinctCount() {
        int n = 0;
        for (int d : groupDistinct) {
            n += d;
        }
        return n;
    }

    long distinctBytes() {
        long n = 0;
        for (long b : groupBytes) {
            n += b;
        }
        return n;
    }

    /**
     * Writes the distinct values in order into {@code heap}, their start offsets (and the end) into
     * {@code offsets}, and the 1-based rank of every sorted entry (of the {@link StringRows} sorted) into
     * {@code rankOfEntry}. Groups in parallel: each
     * knows its first rank and byte offset from the counts of the groups before it.
     */
    void writeDictionary(MemorySegment offsets, MemorySegment heap, int[] rankOfEntry) {
        int groups = groupDistinct.length;
        List<Runnable> tasks = new ArrayList<>();
        int rankBase = 0;
        long byteBase = 0;
        for (int g = 0; g < groups; g++) {
            int from = groupStart[g];
            int to = groupStart[g + 1];
            int firstRank = rankBase;
            long firstByte = byteBase;
            long end = byteBase + groupBytes[g];
            tasks.add(() -> {
                int rank = firstRank;
                long at = firstByte;
                for (int k = from; k < to; k++) {
                    int position = order[k];
                    if (repeat[k] == 0) {
                        offsets.setAtIndex(ValueLayout.JAVA_INT, rank, (int) at);
                        at += strings.copyForward(position, heap, at, end);
                        rank++;
                    }
                    rankOfEntry[entryAt[position]] = rank;
                }
            });
            rankBase += groupDistinct[g];
            byteBase += groupBytes[g];
        }
        offsets.setAtIndex(ValueLayout.JAVA_INT, rankBase, (int) byteBase);
        AllTasks.run(tasks);
    }

    /** Frees the sorted copy of the values. */
    @Override
    public void close() {
        strings.close();
    }
}
