package io.locusdb.core.storage.scan;

/**
 * Bytes a task touched in column storage, counted by the kernels themselves: these VMs have no hardware counters,
 * so this is what the executor and the placer use as memory throughput. One instance per task; not thread-safe.
 */
public final class ScanBytes {
    private long packedBytes;
    private long dictionaryBytes;

    public void addPacked(long bytes) {
        packedBytes += bytes;
    }

    public void addDictionary(long bytes) {
        dictionaryBytes += bytes;
    }

    public long packedBytes() {
        return packedBytes;
    }

    public long dictionaryBytes() {
        return dictionaryBytes;
    }

    public long total() {
        return packedBytes + dictionaryBytes;
    }

    public void reset() {
        packedBytes = 0;
        dictionaryBytes = 0;
    }
}
