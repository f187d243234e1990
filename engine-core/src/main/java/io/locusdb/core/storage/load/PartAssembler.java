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
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

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
        try (ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, n)),
                Thread.ofPlatform().name("locus-encode-", 0).daemon().factory())) {
            for (int i = 0; i < n; i++) {
                int index = i;
                futures.add(pool.submit(() -> TablePartBuilder.buildConcatenated(builders.get(index), index, memory,
                        placements.get(index))));
            }
            for (int i = 0; i < n; i++) {
                try {
                    parts[i] = futures.get(i).get();
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

    private static Future.State futuresState(List<Future<TablePart>> futures, int i) {
        return i < futures.size() ? futures.get(i).state() : Future.State.CANCELLED;
    }
}
