package io.locusdb.natives.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Optional;

/**
 * Shared plumbing for hand-written downcalls: the linker, the errno capture layout and symbol resolution.
 * Functions that can fail take a capture segment as their first argument (see {@link #CAPTURE_ERRNO}).
 */
final class Downcalls {
    static final Linker LINKER = Linker.nativeLinker();
    static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(
            java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));

    static final ValueLayout.OfLong SIZE_T = ValueLayout.JAVA_LONG;

    private Downcalls() {
    }

    static MethodHandle bind(SymbolLookup lookup, String name, FunctionDescriptor descriptor, Linker.Option... options) {
        MemorySegment symbol = lookup.find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("native symbol not found: " + name));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    static Optional<MethodHandle> bindOptional(SymbolLookup lookup, String name, FunctionDescriptor descriptor,
                                               Linker.Option... options) {
        return lookup.find(name).map(symbol -> LINKER.downcallHandle(symbol, descriptor, options));
    }

    static MemorySegment newCapture(Arena arena) {
        return arena.allocate(CAPTURE_LAYOUT);
    }

    static int errno(MemorySegment capture) {
        return (int) ERRNO.get(capture, 0L);
    }
}
