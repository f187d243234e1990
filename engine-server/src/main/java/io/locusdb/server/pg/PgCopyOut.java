package io.locusdb.server.pg;

import io.locusdb.core.Session;
import io.locusdb.core.exec.ExecutionOptions;
import io.locusdb.core.result.QueryResult;
import io.locusdb.core.result.ResultBatch;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.vector.ColumnVector;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** {@code COPY ... TO STDOUT}: a table's or query's rows as CopyData messages, one row each, in text or CSV. */
public final class PgCopyOut {
    private PgCopyOut() {
    }

    /** Runs the copy, writing into {@code out} and calling {@code flush} after each row; returns the rows. */
    public static long run(PgCopy copy, Session engine, ExecutionOptions options, PgDialect dialect, PgWriter out,
                           Runnable flush) {
        String sql = copy.query() != null ? copy.query() : "SELECT " + (copy.columns().isEmpty() ? "*"
                : String.join(", ", copy.columns().stream().map(PgCopyOut::quoted).toList())) + " FROM "
                + quoted(copy.table());
        long rows = 0;
        try (QueryResult result = engine.execute(dialect.rewrite(sql), options)) {
            if (!result.hasRows()) {
                throw new PgDataException("42601", "COPY query must have a RETURNING clause or return rows");
            }
            List<ResultColumn> columns = result.columns();
            out.copyOutResponse(false, columns.size());
            StringBuilder line = new StringBuilder(256);
            if (copy.header()) {
                line.setLength(0);
                for (int c = 0; c < columns.size(); c++) {
                    if (c > 0) {
                        line.append(copy.delimiter());
                    }
                    field(line, columns.get(c).name(), copy);
                }
                copyData(out, line.append('\n'));
            }
            ColumnType[] types = columns.stream().map(ResultColumn::type).toArray(ColumnType[]::new);
            for (ResultBatch batch = result.nextBatch(); batch != null; batch = result.nextBatch()) {
                for (int r = 0; r < batch.rows(); r++) {
                    line.setLength(0);
                    for (int c = 0; c < types.length; c++) {
                        if (c > 0) {
                            line.append(copy.delimiter());
                        }
                        ColumnVector v = batch.vector(c);
                        if (v.anyNull() && v.isNull(r)) {
                            line.append(copy.nullText());
                        } else {
                            field(line, PgValueWriter.text(types[c], v, r, engine.timeZone()), copy);
                        }
                    }
                    copyData(out, line.append('\n'));
                    rows++;
                    flush.run();
                }
            }
        }
        out.copyDone();
        out.commandComplete("COPY " + rows);
        return rows;
    }

    private static void copyData(PgWriter out, CharSequence line) {
        out.begin('d');
        out.buffer().writeCharSequence(line, StandardCharsets.UTF_8);
        out.end();
    }

    /** One value: CSV quotes it when needed; text escapes backslash, the delimiter and line breaks. */
    static void field(StringBuilder line, String value, PgCopy copy) {
        if (copy.csv()) {
            boolean quote = value.isEmpty() && copy.nullText().isEmpty() || value.equals(copy.nullText());
            for (int i = 0; i < value.length() && !quote; i++) {
                char c = value.charAt(i);
                quote = c == copy.delimiter() || c == copy.quote() || c == '\n' || c == '\r';
            }
            if (!quote) {
                line.append(value);
                return;
            }
            line.append(copy.quote());
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c == copy.quote() || c == copy.escape()) {
                    line.append(copy.escape());
                }
                line.append(c);
            }
            line.append(copy.quote());
            return;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> line.append("\\\\");
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append(c == copy.delimiter() ? "\\t" : "\t");
                default -> {
                    if (c == copy.delimiter()) {
                        line.append('\\');
                    }
                    line.append(c);
                }
            }
        }
    }

    static String quoted(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
