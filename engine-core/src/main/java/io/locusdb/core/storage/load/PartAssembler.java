package io.locusdb.core.storage.load;

import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.PartPlacement;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TablePartBuilder;
import io.locusdb.natives.memory.NodeMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Encodes part builders into table parts, several at a time. All or nothing: if one part fails, the parts already
 * built are freed before the error is rethrown.
 */
public final class PartAssembler {
    private PartAssembler() {
    }

    public static List<TablePart> buildAll(List<TablePartBuilder> builders, NodeMemory memory,
                                           InitialPlacement placement, int threads) {
        List<PartPlacement> placements = new ArrayList<>();
        for (int i = 0; i < builders.size(); i++) {
            placements.add(placement.place(i, memory.topology()));
        }
        return buildAll(builders, memory, placements, threads);
    }

    public static List<TablePart> buildAll(List<TablePartBuilder> builders, NodeMemory memory,
                                           List<PartPlacement> placements, int threads) {
        return buildAllFromPieces(builders.stream().map(List::of).toList(), memory, placements, threads);
    }

    /** Like {@link #buildAll} with each part given as several builders whose rows are concatenated. */
    public static List<TablePart> buildAllFromPieces(List<List<TablePartBuilder>> builders, NodeMemory memory,
                                                     List<PartPlacement> placements, int threads) {
        int n = builders.size();
        TablePart[] parts = new TablePart[n];
        Throwable failure = null;
        List<Future<TablePart>> futures = new ArrayList<>();
        // One fork-join pool of the load's threads for everything: parts, their columns and a column's sort
        // buckets are all its tasks, so a table of one part still keeps every thread busy.
        AtomicInteger workers = new AtomicInteger();
        try (ExecutorService pool = new ForkJoinPool(Math.max(1, threads), p -> encodeWorker(p,
                workers.getAndIncrement()), null, false)) {
            // A failure is kept as thrown: a fork-join task's get() from another thread rebuilds the exception
            // around itself, which would change the message the user sees.
            Throwable[] thrown = new Throwable[n];
            for (int i = 0; i < n; i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    try {
                        return TablePartBuilder.buildConcatenated(builders.get(index), index, memory,
                                placements.get(index));
                    } catch (Throwable t) {
                        thrown[index] = t;
                        return null;
                    }
                }));
            }
            for (int i = 0; i < n; i++) {
                try {
                    parts[i] = futures.get(i).get();
                    if (thrown[i] != null && failure == null) {
                        failure = thrown[i];
                    }
                } catch (ExecutionException e) {
                    failure = failure == null ? e.getCause() : failure;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failure = failure == null ? e : failure;
                }
            }
        }
        // Closing the pool waited for every task: parts finished after an interrupted get are collected here,
        // so that a failed load releases them too.
        for (int i = 0; i < n; i++) {
            if (parts[i] == null && futuresState(futures, i) == Future.State.SUCCESS) {
                parts[i] = futures.get(i).resultNow();
            }
        }
        if (failure != null) {
            for (TablePart part : parts) {
                if (part != null) {
                    part.release();
                }
            }
            if (failure instanceof RuntimeException r) {
                throw r;
            }
            if (failure instanceof Error e) {
                throw e;
            }
            throw new IllegalStateException("encoding table parts failed", failure);
        }
        return List.of(parts);
    }

    private static ForkJoinWorkerThread encodeWorker(ForkJoinPool pool, int number) {
        ForkJoinWorkerThread worker = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
        worker.setName("locus-encode-" + number);
        worker.setDaemon(true);
        return worker;
    }

    private static Future.State futuresState(List<Future<TablePart>> futures, int i) {
        return i < futures.size() ? futures.get(i).state() : Future.State.CANCELLED;
    }
}
