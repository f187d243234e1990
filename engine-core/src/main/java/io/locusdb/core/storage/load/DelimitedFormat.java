package io.locusdb.core.storage.load;

/**
 * The shape of a delimited text file.
 *
 * @param delimiter         field separator
 * @param quote             quote character, or 0 for none (TPC-H .tbl files have none)
 * @param header            first line holds column names (skipped after checking the count)
 * @param trailingDelimiter every line ends with a delimiter (TPC-H .tbl)
 * @param emptyIsNull       an empty unquoted field is NULL (else an empty string / a parse error)
 */
public record DelimitedFormat(char delimiter, char quote, boolean header, boolean trailingDelimiter,
                              boolean emptyIsNull) {
    public static DelimitedFormat csv(boolean header) {
        return new DelimitedFormat(',', '"', header, false, true);
    }

    public static DelimitedFormat tbl() {
        return new DelimitedFormat('|', (char) 0, false, true, true);
    }

    /** Picks by file name: {@code .tbl} → TPC-H format, otherwise CSV with a header line. */
    public static DelimitedFormat forFile(String name) {
        return name.endsWith(".tbl") || name.endsWith(".tbl.gz") ? tbl() : csv(true);
    }
}
