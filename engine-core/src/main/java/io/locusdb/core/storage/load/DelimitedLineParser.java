package io.locusdb.core.storage.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a delimited text stream into records of fields. Quoted fields may contain delimiters, doubled quotes and
 * line breaks. A field is returned as null when it is NULL (empty and unquoted, if the format says so). Structural
 * errors (unterminated quote, text after a closing quote, missing trailing delimiter) raise {@link LoadException}.
 */
final class DelimitedLineParser {
    private final BufferedReader reader;
    private final DelimitedFormat format;
    private final String source;
    private long line;
    private long recordStartLine;

    DelimitedLineParser(BufferedReader reader, DelimitedFormat format, String source) {
        this.reader = reader;
        this.format = format;
        this.source = source;
    }

    /** Line number (1-based) where the last returned record started. */
    long lineNumber() {
        return recordStartLine;
    }

    /** The next record's fields, or null at the end of the input. Blank lines are skipped. */
    List<String> next() throws IOException {
        String text;
        do {
            text = reader.readLine();
            if (text == null) {
                return null;
            }
            line++;
        } while (text.isEmpty());
        recordStartLine = line;
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        char delimiter = format.delimiter();
        char quote = format.quote();
        int i = 0;
        boolean quoted = false;
        boolean wasQuoted = false;
        while (true) {
            if (i >= text.length()) {
                if (quoted) {
                    String more = reader.readLine();
                    if (more == null) {
                        throw new LoadException(source, recordStartLine, "" + (fields.size() + 1),
                                "unterminated quoted field at end of file (truncated file?)");
                    }
                    line++;
                    field.append('\n');
                    text = more;
                    i = 0;
                    continue;
                }
                break;
            }
            char c = text.charAt(i++);
            if (quoted) {
                if (c == quote) {
                    if (i < text.length() && text.charAt(i) == quote) {
                        field.append(quote);
                        i++;
                    } else {
                        quoted = false;
                        if (i < text.length() && text.charAt(i) != delimiter) {
                            throw new LoadException(source, line, "" + (fields.size() + 1),
                                    "unexpected text after a closing quote");
                        }
                    }
                } else {
                    field.append(c);
                }
            } else if (c == delimiter) {
                fields.add(finish(field, wasQuoted));
                field.setLength(0);
                wasQuoted = false;
            } else if (quote != 0 && c == quote && field.isEmpty() && !wasQuoted) {
                quoted = true;
                wasQuoted = true;
            } else {
                field.append(c);
            }
        }
        if (format.trailingDelimiter()) {
            if (!text.endsWith(String.valueOf(delimiter)) || !field.isEmpty()) {
                fields.add(finish(field, wasQuoted));
                throw new LoadException(source, recordStartLine, null, "line does not end with '" + delimiter
                        + "' after " + fields.size() + " fields (truncated line?)");
            }
        } else {
            fields.add(finish(field, wasQuoted));
        }
        return fields;
    }

    private String finish(StringBuilder field, boolean wasQuoted) {
        if (field.isEmpty() && !wasQuoted && format.emptyIsNull()) {
            return null;
        }
        return field.toString();
    }
}
