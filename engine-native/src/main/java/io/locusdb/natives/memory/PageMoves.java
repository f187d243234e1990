package io.locusdb.natives.memory;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.locusdb.natives.ffm.Errno;
import io.locusdb.natives.ffm.LibC;
import io.locusdb.natives.ffm.LibNuma;
import io.locusdb.natives.ffm.NativeCallException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Locale;

/**
 * Whether this process may move its own pages between nodes with {@code move_pages}. Containers' default seccomp
 * profiles refuse it (EPERM) while they allow {@code mbind}; the kernel itself never refuses a process its own
 * pages. So the answer comes from trying once, on a page of our own, at first use.
 *
 * @param permitted whether {@code move_pages} works for this process
 * @param detail    why not (the call and its errno, and what to do), or how it was found to work
 */
public record PageMoves(boolean permitted, String detail) {
    /** {@code -Dlocus.page-moves=off}: behave as if moves were refused (never migrate pages in place). */
    public static final String PROPERTY = "locus.page-moves";

    private static volatile PageMoves probed;

    /** The answer for this process, probed once. */
    public static PageMoves ofThisProcess() {
        PageMoves answer = probed;
        if (answer == null) {
            synchronized (PageMoves.class) {
                answer = probed;
                if (answer == null) {
                    answer = probe();
                    probed = answer;
                }
            }
        }
        return answer;
    }

    /** One line for {@code ./locus topology} and the server's start-up log. */
    public String describe() {
        return permitted ? "permitted (" + detail + ")" : "not permitted: " + detail;
    }

    static PageMoves probe() {
        if ("off".equals(System.getProperty(PROPERTY, "").toLowerCase(Locale.ROOT))) {
            return new PageMoves(false, "turned off with -D" + PROPERTY + "=off");
        }
        if (!LibNuma.isAvailable()) {
            return new PageMoves(false, "libnuma is not available: " + LibNuma.unavailableReason());
        }
        int pageSize = LibC.pageSize();
        long address = LibC.mmapAnonymous(pageSize, false);
        try (Arena scratch = Arena.ofConfined()) {
            // A page that is not resident has no node to ask about: touch it first.
            MemorySegment.ofAddress(address).reinterpret(pageSize).set(JAVA_BYTE, 0, (byte) 1);
            MemorySegment capture = LibNuma.newCapture(scratch);
            MemorySegment pages = scratch.allocate(ADDRESS, 1);
            pages.setAtIndex(ADDRESS, 0, MemorySegment.ofAddress(address));
            MemorySegment status = scratch.allocate(JAVA_INT, 1);
            LibNuma.movePages(1, pages, MemorySegment.NULL, status, 0, capture);
            int node = status.getAtIndex(JAVA_INT, 0);
            if (node < 0) {
                return new PageMoves(false, "move_pages could not locate a resident page: " + Errno.name(node));
            }
            // A move to the node the page is on already goes through the same checks as any other move.
            MemorySegment nodes = scratch.allocate(JAVA_INT, 1);
            nodes.setAtIndex(JAVA_INT, 0, node);
            LibNuma.movePages(1, pages, nodes, status, LibNuma.MPOL_MF_MOVE, capture);
            return new PageMoves(true, "a test page moved to node " + node);
        } catch (NativeCallException refused) {
            // Seccomp answers EPERM (the containers' default profile) or ENOSYS (a syscall a profile leaves out).
            String hint = refused.errno() == Errno.EPERM || refused.errno() == Errno.ENOSYS
                    ? "; in a container, the seccomp profile refuses move_pages: run with"
                    + " docker/seccomp-locusdb.json and --cap-add SYS_NICE (see docker/README.md)"
                    : "";
            return new PageMoves(false, refused.getMessage() + hint);
        } finally {
            LibC.munmap(address, pageSize);
        }
    }
}
