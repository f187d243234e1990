package io.locusdb.core.query.sort;

import java.util.Arrays;

/**
 * Sorts row numbers by a {@link RowComparator}: a stable merge sort on {@code int[]}, insertion-sorted runs of
 * {@value #RUN} rows at the bottom, so rows that tie keep their input order (as the ORDER BY of a scan's rows in
 * part order does) and nothing is boxed.
 */
public final class IndexSort {
    private static final int RUN = 32;

    private IndexSort() {
    }

    /** Sorts {@code rows[from..to-1]} in place. */
    public static void sort(int[] rows, int from, int to, RowComparator order) {
        int n = to - from;
        if (n < 2) {
            return;
        }
        for (int start = from; start < to; start += RUN) {
            insertionSort(rows, start, Math.min(to, start + RUN), order);
        }
        if (n <= RUN) {
            return;
        }
        int[] scratch = new int[n];
        int[] src = rows;
        int srcOffset = from;
        int[] dst = scratch;
        int dstOffset = 0;
        for (int width = RUN; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(n, lo + width);
                int hi = Math.min(n, lo + 2 * width);
                merge(src, srcOffset + lo, srcOffset + mid, srcOffset + hi, dst, dstOffset + lo, order);
            }
            int[] t = src;
            src = dst;
            dst = t;
            int o = srcOffset;
            srcOffset = dstOffset;
            dstOffset = o;
        }
        if (src != rows) {
            System.arraycopy(src, srcOffset, rows, from, n);
        }
    }

    private static void insertionSort(int[] rows, int from, int to, RowComparator order) {
        for (int i = from + 1; i < to; i++) {
            int row = rows[i];
            int j = i - 1;
            while (j >= from && order.compare(rows[j], row) > 0) {
                rows[j + 1] = rows[j];
                j--;
            }
            rows[j + 1] = row;
        }
    }

    /** Merges the sorted {@code src[lo..mid-1]} and {@code src[mid..hi-1]} into {@code dst} from {@code at}. */
    private static void merge(int[] src, int lo, int mid, int hi, int[] dst, int at, RowComparator order) {
        int i = lo;
        int j = mid;
        if (mid >= hi || order.compare(src[mid - 1], src[mid]) <= 0) {
            // Already in order (common for partly sorted input): one copy.
            System.arraycopy(src, lo, dst, at, hi - lo);
            return;
        }
        int k = at;
        while (i < mid && j < hi) {
            // Ties take the left run's row first: stable.
            dst[k++] = order.compare(src[j], src[i]) < 0 ? src[j++] : src[i++];
        }
        while (i < mid) {
            dst[k++] = src[i++];
        }
        while (j < hi) {
            dst[k++] = src[j++];
        }
    }

    /**
     * The first {@code limit} of {@code rows[from..to-1]} in order, as a new array: a bounded max-heap of the best
     * rows seen, so a small LIMIT over many rows costs a comparison per row, not a sort of them all. Ties keep
     * their input order, as in {@link #sort}.
     */
    public static int[] top(int[] rows, int from, int to, int limit, RowComparator order) {
        int n = to - from;
        if (limit <= 0 || n <= 0) {
            return new int[0];
        }
        if ((long) limit * 8 >= n) {
            // Not much smaller than the input: sorting all of it is as cheap and simpler.
            int[] copy = Arrays.copyOfRange(rows, from, to);
            sort(copy, 0, n, order);
            return limit >= n ? copy : Arrays.copyOf(copy, limit);
        }
        // heap[0] is the worst row kept; a later row replaces it only when strictly better, which keeps the
        // earlier of two tied rows, as a stable sort would.
        int[] heap = new int[limit];
        int size = 0;
        for (int i = from; i < to; i++) {
            int row = rows[i];
            if (size < limit) {
                heap[size] = row;
                siftUp(heap, size++, order);
            } else if (worse(heap[0], row, order)) {
                heap[0] = row;
                siftDown(heap, size, order);
            }
        }
        sort(heap, 0, size, order);
        // The heap lost input order among ties; a stable order among the kept rows is by row number as a tiebreak.
        stabilize(heap, size, order);
        return heap;
    }

    /**
     * The first {@code limit} of rows {@code 0..n-1} (ties: the earlier row), in row order, not sorted: a selection
     * (quickselect, linear on average) where only the set matters, such as a top-N buffer that keeps its best rows
     * and sorts them once at the end. Rows keep their input order, so a stable sort of them later orders ties as a
     * stable sort of every row would.
     */
    public static int[] firstInRowOrder(int n, int limit, RowComparator order) {
        int[] rows = new int[n];
        for (int i = 0; i < n; i++) {
            rows[i] = i;
        }
        int count = Math.max(0, Math.min(limit, n));
        if (count < n) {
            select(rows, count, order);
        }
        int[] first = Arrays.copyOf(rows, count);
        Arrays.sort(first);
        return first;
    }

    /** The position in {@code rows} of the row that sorts last (ties: the later row). */
    public static int worst(int[] rows, RowComparator order) {
        int worst = 0;
        for (int i = 1; i < rows.length; i++) {
            if (worse(rows[i], rows[worst], order)) {
                worst = i;
            }
        }
        return worst;
    }

    /** Rearranges {@code rows} so that its first {@code k} entries are the {@code k} that sort first. */
    private static void select(int[] rows, int k, RowComparator order) {
        int lo = 0;
        int hi = rows.length;
        while (hi - lo > RUN) {
            int mid = (lo + hi) >>> 1;
            int pivot = medianOfThree(rows[lo], rows[mid], rows[hi - 1], order);
            int i = lo;
            int j = hi - 1;
            // Rows are unique under the row-number tiebreak: the pivot stops both scans, so they stay in bounds.
            while (i <= j) {
                while (worse(pivot, rows[i], order)) {
                    i++;
                }
                while (worse(rows[j], pivot, order)) {
                    j--;
                }
                if (i <= j) {
                    int t = rows[i];
                    rows[i++] = rows[j];
                    rows[j--] = t;
                }
            }
            // rows[lo..j] sort before the pivot, rows[i..hi-1] after it, anything between is the pivot.
            if (k < j + 1) {
                hi = j + 1;
            } else if (k > i) {
                lo = i;
            } else {
                return;
            }
        }
        for (int i = lo + 1; i < hi; i++) {
            int row = rows[i];
            int j = i - 1;
            while (j >= lo && worse(rows[j], row, order)) {
                rows[j + 1] = rows[j];
                j--;
            }
            rows[j + 1] = row;
        }
    }

    private static int medianOfThree(int a, int b, int c, RowComparator order) {
        if (worse(a, b, order)) {
            int t = a;
            a = b;
            b = t;
        }
        if (worse(b, c, order)) {
            b = worse(a, c, order) ? a : c;
        }
        return b;
    }

    /** Whether {@code a} sorts after {@code b}, ties broken by row number (later is worse). */
    private static boolean worse(int a, int b, RowComparator order) {
        int c = order.compare(a, b);
        return c > 0 || (c == 0 && a > b);
    }

    private static void siftUp(int[] heap, int i, RowComparator order) {
        int row = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!worse(row, heap[parent], order)) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = row;
    }

    private static void siftDown(int[] heap, int size, RowComparator order) {
        int i = 0;
        int row = heap[0];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && worse(heap[child + 1], heap[child], order)) {
                child++;
            }
            if (!worse(heap[child], row, order)) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = row;
    }

    /** Reorders runs of tied rows by row number (the heap kept the right rows, not their input order). */
    private static void stabilize(int[] rows, int size, RowComparator order) {
        int start = 0;
        while (start < size) {
            int end = start + 1;
            while (end < size && order.compare(rows[start], rows[end]) == 0) {
                end++;
            }
            if (end - start > 1) {
                Arrays.sort(rows, start, end);
            }
            start = end;
        }
    }
}
