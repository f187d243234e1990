package io.locusdb.server.pg;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code options} startup parameter: command-line style settings, {@code -c name=value} or
 * {@code --name=value}, separated by spaces (a backslash keeps the next character, spaces included).
 */
public final class PgStartupOptions {
    private PgStartupOptions() {
    }

    public static Map<String, String> parse(String options) {
        Map<String, String> settings = new LinkedHashMap<>();
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < options.length(); i++) {
            char c = options.charAt(i);
            if (c == '\\' && i + 1 < options.length()) {
                word.append(options.charAt(++i));
            } else if (Character.isWhitespace(c)) {
                if (!word.isEmpty()) {
                    words.add(word.toString());
                    word.setLength(0);
                }
            } else {
                word.append(c);
            }
        }
        if (!word.isEmpty()) {
            words.add(word.toString());
        }
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            String setting;
            if (w.equals("-c") && i + 1 < words.size()) {
                setting = words.get(++i);
            } else if (w.startsWith("-c") && w.length() > 2) {
                setting = w.substring(2);
            } else if (w.startsWith("--") && w.length() > 2) {
                setting = w.substring(2);
            } else {
                throw new PgDataException("22023", "invalid command-line argument in the options startup parameter: "
                        + w);
            }
            int eq = setting.indexOf('=');
            if (eq <= 0) {
                throw new PgDataException("22023", "--" + setting + " requires a value");
            }
            settings.put(setting.substring(0, eq).replace('-', '_'), setting.substring(eq + 1));
        }
        return settings;
    }
}
