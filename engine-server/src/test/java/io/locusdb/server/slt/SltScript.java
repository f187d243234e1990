package io.locusdb.server.slt;

import io.locusdb.server.slt.SltRecord.SortMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A sqllogictest script (SQLite's format): records separated by blank lines, each optionally preceded by
 * {@code skipif <engine>} / {@code onlyif <engine>} lines that decide whether this engine runs it. Records for
 * other engines are left out when parsing, so the list is what {@link #ENGINE} runs.
 */
final class SltScript {
    /** The name this engine answers to in {@code skipif} and {@code onlyif}. */
    static final String ENGINE = "locusdb";
    private static final Pattern HASHED = Pattern.compile("(\\d+) values hashing to ([0-9a-f]{32})");

    private SltScript() {
    }

    /** The records {@link #ENGINE} runs, in order; a malformed record is an error naming its line. */
    static List<SltRecord> parse(String name, String text) {
        String[] lines = text.split("\r?\n", -1);
        List<SltRecord> records = new ArrayList<>();
        int i = 0;
        while (i < lines.length) {
            if (isBlankOrComment(lines[i])) {
                i++;
                continue;
            }
            int start = i + 1;
            boolean runs = true;
            while (i < lines.length && (lines[i].startsWith("skipif ") || lines[i].startsWith("onlyif "))) {
                String engine = word(lines[i], 1);
                runs &= lines[i].startsWith("skipif ") ? !engine.equals(ENGINE) : engine.equals(ENGINE);
                i++;
            }
            if (i >= lines.length) {
                break;
            }
            String head = lines[i].strip();
            int headLine = i + 1;
            i++;
            if (head.startsWith("statement")) {
                StringBuilder sql = new StringBuilder();
                while (i < lines.length && !lines[i].isBlank()) {
                    append(sql, lines[i++]);
                }
                String kind = word(head, 1);
                if (!kind.equals("ok") && !kind.equals("error")) {
                    throw new IllegalArgumentException(name + ":" + headLine + ": statement ok|error expected: "
                            + head);
                }
                if (runs) {
                    records.add(new SltRecord.Statement(headLine, sql.toString(), kind.equals("error")));
                }
            } else if (head.startsWith("query")) {
                String[] words = head.split("\\s+");
                if (words.length < 2) {
                    throw new IllegalArgumentException(name + ":" + headLine + ": query without types");
                }
                SortMode sort = words.length > 2 ? SortMode.valueOf(words[2].toUpperCase(Locale.ROOT))
                        : SortMode.NOSORT;
                String label = words.length > 3 ? words[3] : null;
                StringBuilder sql = new StringBuilder();
                while (i < lines.length && !lines[i].isBlank() && !lines[i].equals("----")) {
                    append(sql, lines[i++]);
                }
                List<String> expected = new ArrayList<>();
                String hash = null;
                int count = 0;
                if (i < lines.length && lines[i].equals("----")) {
                    i++;
                    while (i < lines.length && !lines[i].isBlank()) {
                        expected.add(lines[i++]);
                    }
                    Matcher hashed = expected.size() == 1 ? HASHED.matcher(expected.getFirst().strip()) : null;
                    if (hashed != null && hashed.matches()) {
                        count = Integer.parseInt(hashed.group(1));
                        hash = hashed.group(2);
                        expected = List.of();
                    } else {
                        count = expected.size();
                    }
                }
                if (runs) {
                    records.add(new SltRecord.Query(headLine, sql.toString(), words[1], sort, label,
                            List.copyOf(expected), count, hash));
                }
            } else if (head.startsWith("hash-threshold")) {
                if (runs) {
                    records.add(new SltRecord.HashThreshold(headLine, Integer.parseInt(word(head, 1))));
                }
            } else if (head.equals("halt")) {
                if (runs) {
                    records.add(new SltRecord.Halt(headLine));
                }
            } else {
                throw new IllegalArgumentException(name + ":" + start + ": unknown record: " + head);
            }
            while (i < lines.length && !lines[i].isBlank()) {
                i++;
            }
        }
        return records;
    }

    private static boolean isBlankOrComment(String line) {
        return line.isBlank() || line.startsWith("#");
    }

    private static String word(String line, int index) {
        String[] words = line.strip().split("\\s+");
        return index < words.length ? words[index] : "";
    }

    private static void append(StringBuilder sql, String line) {
        if (!sql.isEmpty()) {
            sql.append('\n');
        }
        sql.append(line);
    }
}
