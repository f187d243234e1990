package io.locusdb.core.query.expr;

import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;

/**
 * PostgreSQL's {@code format(text, args...)}: {@code %s} an argument as text (NULL as nothing), {@code %I} as an
 * identifier (quoted where PostgreSQL's {@code quote_ident} would; NULL is an error), {@code %L} as a literal
 * (quoted, NULL as {@code NULL}), {@code %%} a percent sign; {@code %n$s} takes the n-th argument. Width and
 * flags are not supported and are an error naming them.
 */
public final class PgFormat {
    private PgFormat() {
    }

    /** {@code args[0]} is the format, the rest its arguments; a NULL format gives NULL. */
    public static Object format(Object[] args) {
        if (args[0] == null) {
            return null;
        }
        String f = (String) args[0];
        StringBuilder out = new StringBuilder();
        int next = 1;
        for (int i = 0; i < f.length(); i++) {
            char c = f.charAt(i);
            if (c != '%') {
                out.append(c);
                continue;
            }
            if (++i >= f.length()) {
                throw invalid("unterminated format() type specifier");
            }
            if (f.charAt(i) == '%') {
                out.append('%');
                continue;
            }
            int argument = next;
            int digits = i;
            while (digits < f.length() && Character.isDigit(f.charAt(digits))) {
                digits++;
            }
            if (digits > i && digits < f.length() && f.charAt(digits) == '$') {
                try {
                    argument = Integer.parseInt(f.substring(i, digits));
                } catch (NumberFormatException e) {
                    throw invalid("argument number " + f.substring(i, digits) + " in format() is out of range");
                }
                i = digits + 1;
            }
            if (i >= f.length()) {
                throw invalid("unterminated format() type specifier");
            }
            if (argument < 1 || argument >= args.length) {
                throw invalid("too few arguments for format()");
            }
            Object value = args[argument];
            next = argument + 1;
            switch (f.charAt(i)) {
                case 's' -> out.append(value == null ? "" : value.toString());
                case 'I' -> {
                    if (value == null) {
                        throw invalid("null values cannot be formatted as an SQL identifier");
                    }
                    out.append(quoteIdent(value.toString()));
                }
                case 'L' -> out.append(value == null ? "NULL" : "'" + value.toString().replace("'", "''") + "'");
                default -> throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED,
                        "format() specifier \"%" + f.charAt(i) + "\" is not supported (%s, %I, %L and %% are)");
            }
        }
        return out.toString();
    }

    /** Double quotes unless the name is lower-case letters, digits, '_' and '$' starting with a letter or '_'. */
    public static String quoteIdent(String id) {
        return id.matches("[a-z_][a-z0-9_$]*") ? id : "\"" + id.replace("\"", "\"\"") + "\"";
    }

    private static LocusSqlException invalid(String message) {
        return new LocusSqlException(SqlState.INVALID_PARAMETER, message);
    }
}
