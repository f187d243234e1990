package io.locusdb.core.storage.column;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A column's index vector: {@code count} value IDs packed per {@link PackedLayout} in an off-heap segment (bound to
 * the part's node). Random access is for materialization; scans read whole words.
 */
public final class PackedCodes {
    private final MemorySegment words;
    private final PackedLayout layout;
    private final long count;
    private final int codesPerWord;
    private final int fieldBits;
    private final long codeMask;

    public PackedCodes(MemorySegment words, PackedLayout layout, long count) {
        if (words.byteSize() < layout.bytesFor(count)) {
            throw new IllegalArgumentException("segment of " + words.byteSize() + " bytes cannot hold " + count
                    + " codes of layout " + layout);
        }
        this.words = words;
        this.layout = layout;
        this.count = count;
        this.codesPerWord = layout.codesPerWord();
        this.fieldBits = layout.fieldBits();
        this.codeMask = layout.codeMask();
    }

    public MemorySegment words() {
        return words;
    }

    public PackedLayout layout() {
        return layout;
    }

    public long count() {
        return count;
    }

    public long wordCount() {
        return layout.wordsFor(count);
    }

    /** Bytes holding codes (what a full scan reads). */
    public long byteSize() {
        return layout.bytesFor(count);
    }

    public int get(long index) {
        long word = index / codesPerWord;
        int field = (int) (index - word * codesPerWord);
        long bits = words.getAtIndex(ValueLayout.JAVA_LONG, word);
        return (int) ((bits >>> (field * fieldBits)) & codeMask);
    }

    /** Writes codes sequentially into a segment; one word store per {@code codesPerWord} codes. */
    public static final class Writer {
        private final MemorySegment words;
        private final PackedLayout layout;
        private final int codesPerWord;
        private final int fieldBits;
        /** Where a word is full: codesPerWord fields of fieldBits. */
        private final int fullShift;
        private final long codeMask;
        private long wordIndex;
        private long current;
        private int shift;

        public Writer(MemorySegment words, PackedLayout layout) {
            this.words = words;
            this.layout = layout;
            this.codesPerWord = layout.codesPerWord();
            this.fieldBits = layout.fieldBits();
            this.fullShift = codesPerWord * fieldBits;
            this.codeMask = layout.codeMask();
        }

        public void add(int code) {
            if ((code & ~codeMask) != 0) {
                throw new IllegalArgumentException("code " + code + " does not fit " + layout.codeBits() + " bits");
            }
            current |= (long) code << shift;
            shift += fieldBits;
            if (shift == fullShift) {
                words.setAtIndex(ValueLayout.JAVA_LONG, wordIndex++, current);
                current = 0;
                shift = 0;
            }
        }

        public PackedCodes finish() {
            long written = wordIndex * codesPerWord + shift / fieldBits;
            if (shift > 0) {
                words.setAtIndex(ValueLayout.JAVA_LONG, wordIndex++, current);
                current = 0;
                shift = 0;
            }
            return new PackedCodes(words, layout, written);
        }
    }
}
