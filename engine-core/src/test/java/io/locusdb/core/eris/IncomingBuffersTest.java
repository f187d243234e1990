package io.locusdb.core.eris;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The incoming buffers' latch-free protocol: many writers copy numbered runs while the owner swaps and drains
 * without pause; every command comes out exactly once, and each run comes out whole and in order.
 */
class IncomingBuffersTest {
    @Test
    void manyWritersAndASwappingOwnerLoseAndDuplicateNothing() throws InterruptedException {
        int writers = 6;
        int runsPerWriter = 20_000;
        int run = 5;
        IncomingBuffers buffers = new IncomingBuffers(64);
        AtomicBoolean writing = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int r = 0; r < runsPerWriter; r++) {
                    Object[] commands = new Object[run];
                    for (int i = 0; i < run; i++) {
                        commands[i] = new long[] {writer, r, i};
                    }
                    while (!buffers.offer(commands, 0, run)) {
                        Thread.onSpinWait();
                    }
                }
            }));
        }
        Thread finisher = Thread.ofPlatform().start(() -> {
            for (Thread t : threads) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    return;
                }
            }
            writing.set(false);
        });
        int[][] seen = new int[writers][runsPerWriter];
        int[] nextRun = new int[writers];
        long[] total = {0};
        boolean[] inOrder = {true};
        Object[] last = new Object[1];
        while (writing.get() || buffers.pending() > 0) {
            buffers.drain(c -> {
                long[] id = (long[]) c;
                int writer = (int) id[0];
                int r = (int) id[1];
                seen[writer][r]++;
                // Within a run the commands follow each other; runs of one writer come in the order written.
                if (id[2] == 0) {
                    inOrder[0] &= r == nextRun[writer];
                    nextRun[writer] = r + 1;
                } else {
                    long[] previous = (long[]) last[0];
                    inOrder[0] &= previous[0] == id[0] && previous[1] == id[1] && previous[2] == id[2] - 1;
                }
                last[0] = c;
                total[0]++;
            });
        }
        finisher.join();
        assertThat(total[0]).isEqualTo((long) writers * runsPerWriter * run);
        for (int[] runs : seen) {
            assertThat(runs).containsOnly(run);
        }
        assertThat(inOrder[0]).as("runs whole and in order").isTrue();
    }

    @Test
    void aFullBufferRefusesARunUntilTheOwnerDrains() {
        IncomingBuffers buffers = new IncomingBuffers(4);
        assertThat(buffers.offer(new Object[] {1, 2, 3}, 0, 3)).isTrue();
        assertThat(buffers.offer(new Object[] {4, 5}, 0, 2)).isFalse();
        List<Object> drained = new ArrayList<>();
        assertThat(buffers.drain(drained::add)).isEqualTo(3);
        assertThat(buffers.offer(new Object[] {4, 5}, 0, 2)).isTrue();
        buffers.drain(drained::add);
        assertThat(drained).containsExactly(1, 2, 3, 4, 5);
    }
}
