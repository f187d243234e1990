package io.locusdb.natives.ffm;

/**
 * Linux errno numbers (x86-64/asm-generic) and their symbolic names, so errors read as "EINVAL" rather than "22".
 */
public final class Errno {
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int ESRCH = 3;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int E2BIG = 7;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int EXDEV = 18;
    public static final int ENODEV = 19;
    public static final int EINVAL = 22;
    public static final int ENOSPC = 28;
    public static final int ENOSYS = 38;
    public static final int EOPNOTSUPP = 95;

    private static final String[] NAMES = new String[134];

    static {
        String[] base = {
            null, "EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG", "ENOEXEC", "EBADF", "ECHILD",
            "EAGAIN", "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY", "EEXIST", "EXDEV", "ENODEV", "ENOTDIR",
            "EISDIR", "EINVAL", "ENFILE", "EMFILE", "ENOTTY", "ETXTBSY", "EFBIG", "ENOSPC", "ESPIPE", "EROFS",
            "EMLINK", "EPIPE", "EDOM", "ERANGE", "EDEADLK", "ENAMETOOLONG", "ENOLCK", "ENOSYS", "ENOTEMPTY", "ELOOP"
        };
        System.arraycopy(base, 0, NAMES, 0, base.length);
        NAMES[61] = "ENODATA";
        NAMES[62] = "ETIME";
        NAMES[75] = "EOVERFLOW";
        NAMES[95] = "EOPNOTSUPP";
        NAMES[110] = "ETIMEDOUT";
        NAMES[125] = "ECANCELED";
        NAMES[133] = "EHWPOISON";
    }

    private Errno() {
    }

    /** The symbolic name, or "errno N" for numbers without one here. */
    public static String name(int errno) {
        int e = Math.abs(errno);
        if (e < NAMES.length && NAMES[e] != null) {
            return NAMES[e];
        }
        return "errno " + e;
    }
}
