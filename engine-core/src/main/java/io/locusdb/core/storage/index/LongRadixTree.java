package io.locusdb.core.storage.index;

import java.util.ArrayList;
import java.util.List;

/**
 * An adaptive radix tree (Leis, Kemper and Neumann, ICDE 2013; the prefix tree ERIS partitions its indexes with)
 * from 64-bit keys to 64-bit values, in key order. A key is read as 8 bytes, most significant first with the sign
 * bit flipped, so byte order is signed key order; each inner node branches on one byte and is as large as its
 * children need (4, 16, 48 or 256 slots), a path of single children is kept as a prefix of up to 7 bytes in the
 * node below it, and a subtree of one key is just its leaf (lazy expansion). A lookup is at most 8 dependent reads
 * and usually 3-4; range reads visit only the subtrees that meet the range.
 *
 * <p>Not synchronized: an ERIS partition has exactly one owner thread.
 */
public final class LongRadixTree {
    /** Receives entries in key order. */
    @FunctionalInterface
    public interface EntryConsumer {
        void accept(long key, long value);
    }

    private interface LeafVisitor {
        void visit(Leaf leaf);
    }

    private static final int ADD = 0;
    private static final int PUT = 1;

    private Node root;
    private long size;
    /** The value an insertion left under its key; set by {@link #insert}, read right after it. */
    private long written;

    /** Entries held. */
    public long size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The value under {@code key}, or {@code missing}. */
    public long get(long key, long missing) {
        Leaf leaf = find(unsigned(key));
        return leaf != null ? leaf.value : missing;
    }

    public boolean containsKey(long key) {
        return find(unsigned(key)) != null;
    }

    /** The leaf of {@code uk} (unsigned form), or null. */
    private Leaf find(long uk) {
        Node n = root;
        int depth = 0;
        while (n != null) {
            if (n instanceof Leaf leaf) {
                return leaf.key == uk ? leaf : null;
            }
            Inner inner = (Inner) n;
            // The prefix is not compared on the way down: the leaf compares the whole key.
            depth += inner.prefixLength;
            n = inner.child(byteAt(uk, depth));
            depth++;
        }
        return null;
    }

    /** Sets the value under {@code key}. */
    public void put(long key, long value) {
        root = insert(root, 0, unsigned(key), value, PUT, null);
    }

    /** Adds {@code delta} to the value under {@code key}, which starts at 0 when absent; returns the new value. */
    public long add(long key, long delta) {
        root = insert(root, 0, unsigned(key), delta, ADD, null);
        return written;
    }

    /** Removes {@code key}; whether it was there. */
    public boolean remove(long key) {
        long before = size;
        root = delete(root, 0, unsigned(key));
        return size < before;
    }

    /** Every entry with a key in {@code [lo, hi]}, in key order. */
    public void forEach(long lo, long hi, EntryConsumer consumer) {
        if (root != null && lo <= hi) {
            walk(root, 0, unsigned(lo), unsigned(hi), leaf -> consumer.accept(signed(leaf.key), leaf.value));
        }
    }

    /** Every entry, in key order. */
    public void forEach(EntryConsumer consumer) {
        if (root != null) {
            walkAll(root, leaf -> consumer.accept(signed(leaf.key), leaf.value));
        }
    }

    /**
     * Takes the entries with keys in {@code [lo, hi]} out of this tree into a new one. The entries' leaves move as
     * they are: nothing of them is copied.
     */
    public LongRadixTree removeRange(long lo, long hi) {
        List<Leaf> moving = new ArrayList<>();
        if (root != null && lo <= hi) {
            walk(root, 0, unsigned(lo), unsigned(hi), moving::add);
        }
        LongRadixTree taken = new LongRadixTree();
        for (Leaf leaf : moving) {
            root = delete(root, 0, leaf.key);
            taken.root = taken.insert(taken.root, 0, leaf.key, leaf.value, PUT, leaf);
        }
        return taken;
    }

    /**
     * Puts every entry of {@code other} here (its value replaces one under the same key). With {@code link} the
     * leaves of {@code other} are taken over as they are and {@code other} is left empty; otherwise new leaves are
     * made by this thread, in the memory it allocates from, and {@code other} is unchanged.
     */
    public void putAll(LongRadixTree other, boolean link) {
        if (other.root == null) {
            return;
        }
        List<Leaf> leaves = new ArrayList<>((int) Math.min(other.size, Integer.MAX_VALUE - 8));
        walkAll(other.root, leaves::add);
        for (Leaf leaf : leaves) {
            root = insert(root, 0, leaf.key, leaf.value, PUT, link ? leaf : null);
        }
        if (link) {
            other.root = null;
            other.size = 0;
        }
    }

    /**
     * An estimate of the heap this tree holds (compressed references, 8-byte alignment): leaves and inner nodes
     * with their arrays. Walks the tree.
     */
    public long memoryBytes() {
        return root == null ? 0 : bytes(root);
    }

    // ---- the algorithms

    private Node insert(Node n, int depth, long uk, long value, int mode, Leaf adopt) {
        if (n == null) {
            return newLeaf(uk, value, adopt);
        }
        if (n instanceof Leaf leaf) {
            if (leaf.key == uk) {
                leaf.value = mode == ADD ? leaf.value + value : value;
                written = leaf.value;
                return leaf;
            }
            int at = firstDifferentByte(leaf.key, uk);
            SortedNode split = SortedNode.small(at - depth, uk);
            split.addChild(byteAt(leaf.key, at), leaf);
            split.addChild(byteAt(uk, at), newLeaf(uk, value, adopt));
            return split;
        }
        Inner inner = (Inner) n;
        int branch = depth + inner.prefixLength;
        if (inner.prefixLength > 0) {
            int at = firstDifferentByte(inner.prefixKey, uk);
            if (at < branch) {
                SortedNode split = SortedNode.small(at - depth, uk);
                inner.prefixLength = branch - at - 1;
                split.addChild(byteAt(inner.prefixKey, at), inner);
                split.addChild(byteAt(uk, at), newLeaf(uk, value, adopt));
                return split;
            }
        }
        int b = byteAt(uk, branch);
        Node child = inner.child(b);
        if (child == null) {
            return inner.addChild(b, newLeaf(uk, value, adopt));
        }
        Node replaced = insert(child, branch + 1, uk, value, mode, adopt);
        if (replaced != child) {
            inner.replaceChild(b, replaced);
        }
        return inner;
    }

    private Leaf newLeaf(long uk, long value, Leaf adopt) {
        size++;
        written = value;
        if (adopt != null) {
            adopt.value = value;
            return adopt;
        }
        return new Leaf(uk, value);
    }

    private Node delete(Node n, int depth, long uk) {
        if (n == null) {
            return null;
        }
        if (n instanceof Leaf leaf) {
            if (leaf.key == uk) {
                size--;
                return null;
            }
            return leaf;
        }
        Inner inner = (Inner) n;
        int branch = depth + inner.prefixLength;
        if (firstDifferentByte(inner.prefixKey, uk) < branch) {
            return inner;
        }
        int b = byteAt(uk, branch);
        Node child = inner.child(b);
        if (child == null) {
            return inner;
        }
        Node replaced = delete(child, branch + 1, uk);
        if (replaced == child) {
            return inner;
        }
        if (replaced != null) {
            inner.replaceChild(b, replaced);
            return inner;
        }
        Inner rest = inner.removeChild(b);
        if (rest.count > 1) {
            return rest;
        }
        // One child left: the node goes, its byte and prefix become part of the child's prefix.
        Node only = rest.onlyChild();
        if (only instanceof Inner below) {
            below.prefixLength += rest.prefixLength + 1;
        }
        return only;
    }

    /** Visits the leaves with keys in {@code [lo, hi]} (unsigned form) in order, skipping subtrees outside it. */
    private static void walk(Node n, int depth, long lo, long hi, LeafVisitor visitor) {
        if (n instanceof Leaf leaf) {
            if (Long.compareUnsigned(leaf.key, lo) >= 0 && Long.compareUnsigned(leaf.key, hi) <= 0) {
                visitor.visit(leaf);
            }
            return;
        }
        Inner inner = (Inner) n;
        int branch = depth + inner.prefixLength;
        long path = inner.prefixKey & ~belowByte(branch);
        long rest = belowByte(branch + 1);
        for (int slot = 0, end = inner.slots(); slot < end; slot++) {
            Node child = inner.childAt(slot);
            if (child == null) {
                continue;
            }
            long min = path | ((long) inner.byteAt(slot) << (56 - 8 * branch));
            long max = min | rest;
            if (Long.compareUnsigned(max, lo) < 0) {
                continue;
            }
            if (Long.compareUnsigned(min, hi) > 0) {
                return;
            }
            if (Long.compareUnsigned(min, lo) >= 0 && Long.compareUnsigned(max, hi) <= 0) {
                walkAll(child, visitor);
            } else {
                walk(child, branch + 1, lo, hi, visitor);
            }
        }
    }

    private static void walkAll(Node n, LeafVisitor visitor) {
        if (n instanceof Leaf leaf) {
            visitor.visit(leaf);
            return;
        }
        Inner inner = (Inner) n;
        for (int slot = 0, end = inner.slots(); slot < end; slot++) {
            Node child = inner.childAt(slot);
            if (child != null) {
                walkAll(child, visitor);
            }
        }
    }

    private static long bytes(Node n) {
        if (n instanceof Leaf) {
            return Leaf.BYTES;
        }
        Inner inner = (Inner) n;
        long total = inner.bytes();
        for (int slot = 0, end = inner.slots(); slot < end; slot++) {
            Node child = inner.childAt(slot);
            if (child != null) {
                total += bytes(child);
            }
        }
        return total;
    }

    // ---- keys as bytes

    /** The key with its sign bit flipped: unsigned order of these is signed order of keys. */
    private static long unsigned(long key) {
        return key ^ Long.MIN_VALUE;
    }

    private static long signed(long uk) {
        return uk ^ Long.MIN_VALUE;
    }

    private static int byteAt(long uk, int depth) {
        return (int) (uk >>> (56 - 8 * depth)) & 0xFF;
    }

    /** The index (0 = most significant) of the first byte in which a and b differ; 8 when they are equal. */
    private static int firstDifferentByte(long a, long b) {
        return Long.numberOfLeadingZeros(a ^ b) >>> 3;
    }

    /** The bits of bytes {@code from..7}. */
    private static long belowByte(int from) {
        return from >= 8 ? 0 : -1L >>> (8 * from);
    }

    // ---- nodes

    private abstract static sealed class Node permits Leaf, Inner {
    }

    private static final class Leaf extends Node {
        /** Header, key, value. */
        static final long BYTES = 32;
        final long key;
        long value;

        Leaf(long key, long value) {
            this.key = key;
            this.value = value;
        }
    }

    private abstract static sealed class Inner extends Node permits SortedNode, Node48, Node256 {
        /** Bytes skipped before this node's branching byte: they are the same for every key below. */
        int prefixLength;
        /**
         * A key below this node, or one that was: its bytes up to the branching byte are the path to here and the
         * prefix, whichever keys come and go.
         */
        final long prefixKey;
        int count;

        Inner(int prefixLength, long prefixKey) {
            this.prefixLength = prefixLength;
            this.prefixKey = prefixKey;
        }

        abstract Node child(int b);

        /**
         * Slots to visit for the children in byte order: {@code childAt(0 .. slots()-1)}, null where a slot is
         * empty, each child's byte {@code byteAt(slot)}.
         */
        abstract int slots();

        abstract Node childAt(int slot);

        abstract int byteAt(int slot);

        /** Adds a child under a byte that has none; returns this node or the larger one that replaces it. */
        abstract Inner addChild(int b, Node child);

        abstract void replaceChild(int b, Node child);

        /** Removes the child under {@code b}; returns this node or the smaller one that replaces it. */
        abstract Inner removeChild(int b);

        abstract long bytes();

        Node onlyChild() {
            for (int slot = 0; ; slot++) {
                Node child = childAt(slot);
                if (child != null) {
                    return child;
                }
            }
        }

        /** Copies this node's children into {@code into}, in byte order. */
        <T extends Inner> T moveTo(T into) {
            for (int slot = 0, end = slots(); slot < end; slot++) {
                Node child = childAt(slot);
                if (child != null) {
                    into.addChild(byteAt(slot), child);
                }
            }
            return into;
        }
    }

    /**
     * Up to 4 or 16 children ({@code Node4}, {@code Node16} in the paper), their bytes sorted and searched in order:
     * one class, as only their capacity differs.
     */
    private static final class SortedNode extends Inner {
        final byte[] keys;
        final Node[] children;

        SortedNode(int capacity, int prefixLength, long prefixKey) {
            super(prefixLength, prefixKey);
            keys = new byte[capacity];
            children = new Node[capacity];
        }

        static SortedNode small(int prefixLength, long prefixKey) {
            return new SortedNode(4, prefixLength, prefixKey);
        }

        private int indexOf(int b) {
            for (int i = 0; i < count; i++) {
                if ((keys[i] & 0xFF) == b) {
                    return i;
                }
            }
            return -1;
        }

        @Override
        Node child(int b) {
            int i = indexOf(b);
            return i >= 0 ? children[i] : null;
        }

        @Override
        int slots() {
            return count;
        }

        @Override
        Node childAt(int slot) {
            return children[slot];
        }

        @Override
        int byteAt(int slot) {
            return keys[slot] & 0xFF;
        }

        @Override
        Inner addChild(int b, Node child) {
            if (count == keys.length) {
                Inner larger = keys.length == 4 ? new SortedNode(16, prefixLength, prefixKey)
                        : new Node48(prefixLength, prefixKey);
                return moveTo(larger).addChild(b, child);
            }
            int i = count;
            while (i > 0 && (keys[i - 1] & 0xFF) > b) {
                keys[i] = keys[i - 1];
                children[i] = children[i - 1];
                i--;
            }
            keys[i] = (byte) b;
            children[i] = child;
            count++;
            return this;
        }

        @Override
        void replaceChild(int b, Node child) {
            children[indexOf(b)] = child;
        }

        @Override
        Inner removeChild(int b) {
            int i = indexOf(b);
            System.arraycopy(keys, i + 1, keys, i, count - i - 1);
            System.arraycopy(children, i + 1, children, i, count - i - 1);
            count--;
            children[count] = null;
            return keys.length > 4 && count <= 3 ? moveTo(small(prefixLength, prefixKey)) : this;
        }

        @Override
        long bytes() {
            // Header and fields, the key bytes, the child references (compressed).
            return keys.length == 4 ? 32 + 24 + 32 : 32 + 32 + 80;
        }
    }

    /** Up to 48 children, found through a 256-entry index of slot numbers (0: none). */
    private static final class Node48 extends Inner {
        final byte[] slotOf = new byte[256];
        final Node[] children = new Node[48];

        Node48(int prefixLength, long prefixKey) {
            super(prefixLength, prefixKey);
        }

        @Override
        Node child(int b) {
            int slot = slotOf[b];
            return slot == 0 ? null : children[slot - 1];
        }

        @Override
        int slots() {
            return 256;
        }

        @Override
        Node childAt(int slot) {
            int at = slotOf[slot];
            return at == 0 ? null : children[at - 1];
        }

        @Override
        int byteAt(int slot) {
            return slot;
        }

        @Override
        Inner addChild(int b, Node child) {
            if (count == 48) {
                return moveTo(new Node256(prefixLength, prefixKey)).addChild(b, child);
            }
            int slot = 0;
            while (children[slot] != null) {
                slot++;
            }
            children[slot] = child;
            slotOf[b] = (byte) (slot + 1);
            count++;
            return this;
        }

        @Override
        void replaceChild(int b, Node child) {
            children[slotOf[b] - 1] = child;
        }

        @Override
        Inner removeChild(int b) {
            children[slotOf[b] - 1] = null;
            slotOf[b] = 0;
            count--;
            return count <= 12 ? moveTo(new SortedNode(16, prefixLength, prefixKey)) : this;
        }

        @Override
        long bytes() {
            return 32 + 272 + 208;
        }
    }

    /** A child slot for every byte. */
    private static final class Node256 extends Inner {
        final Node[] children = new Node[256];

        Node256(int prefixLength, long prefixKey) {
            super(prefixLength, prefixKey);
        }

        @Override
        Node child(int b) {
            return children[b];
        }

        @Override
        int slots() {
            return 256;
        }

        @Override
        Node childAt(int slot) {
            return children[slot];
        }

        @Override
        int byteAt(int slot) {
            return slot;
        }

        @Override
        Inner addChild(int b, Node child) {
            children[b] = child;
            count++;
            return this;
        }

        @Override
        void replaceChild(int b, Node child) {
            children[b] = child;
        }

        @Override
        Inner removeChild(int b) {
            children[b] = null;
            count--;
            return count <= 37 ? moveTo(new Node48(prefixLength, prefixKey)) : this;
        }

        @Override
        long bytes() {
            return 32 + 1040;
        }
    }
}
