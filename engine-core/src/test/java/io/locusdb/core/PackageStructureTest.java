package io.locusdb.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine's packages depend on each other without cycles, and Calcite ends at the planner: below it, the plan,
 * the pipelines, the operators and the kernels know only LocusDB's own types. Read from the sources (imports and
 * qualified names).
 */
class PackageStructureTest {
    private static final Path SOURCES = Path.of("src/main/java");
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("\\b(io\\.locusdb\\.core(?:\\.[a-z]\\w*)*)\\.[A-Z]");
    /** The packages that may read Calcite: the SQL front end, the planner, and the statements above them. */
    private static final Set<String> CALCITE_ALLOWED = Set.of("io.locusdb.core.sql", "io.locusdb.core.query.planner",
            "io.locusdb.core.query");

    private static final Map<String, Set<String>> DEPENDENCIES = new TreeMap<>();
    private static final Map<String, Set<String>> CALCITE_USERS = new TreeMap<>();

    @BeforeAll
    static void read() throws IOException {
        try (Stream<Path> files = Files.walk(SOURCES)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(PackageStructureTest::readFile);
        }
    }

    private static void readFile(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Matcher p = PACKAGE.matcher(text);
        if (!p.find()) {
            return;
        }
        String own = p.group(1);
        Set<String> uses = DEPENDENCIES.computeIfAbsent(own, k -> new TreeSet<>());
        Matcher r = REFERENCE.matcher(text);
        while (r.find()) {
            if (!r.group(1).equals(own)) {
                uses.add(r.group(1));
            }
        }
        if (text.contains("org.apache.calcite.")) {
            CALCITE_USERS.computeIfAbsent(own, k -> new TreeSet<>()).add(file.getFileName().toString());
        }
    }

    @Test
    void theSourcesWereFound() {
        assertThat(DEPENDENCIES).containsKeys("io.locusdb.core.query.plan", "io.locusdb.core.vector",
                "io.locusdb.core.exec");
    }

    @Test
    void packagesFormNoCycle() {
        assertThat(cycles()).as("package cycles").isEmpty();
    }

    @Test
    void onlyTheFrontEndAndThePlannerReadCalcite() {
        Map<String, Set<String>> below = new TreeMap<>(CALCITE_USERS);
        below.keySet().removeAll(CALCITE_ALLOWED);
        assertThat(below).as("classes below the planner that refer to Calcite").isEmpty();
        assertThat(CALCITE_USERS.getOrDefault("io.locusdb.core.query", Set.of()))
                .as("statements hand Calcite's plan to the planner, nothing more").containsOnly("QueryEngine.java");
    }

    /** Strongly connected groups of more than one package (Tarjan). */
    private static List<Set<String>> cycles() {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> found = new ArrayList<>();
        int[] counter = {0};
        for (String p : DEPENDENCIES.keySet()) {
            if (!index.containsKey(p)) {
                connect(p, index, low, stack, onStack, found, counter);
            }
        }
        return found;
    }

    private static void connect(String p, Map<String, Integer> index, Map<String, Integer> low, Deque<String> stack,
                                Set<String> onStack, List<Set<String>> found, int[] counter) {
        index.put(p, counter[0]);
        low.put(p, counter[0]++);
        stack.push(p);
        onStack.add(p);
        for (String q : DEPENDENCIES.getOrDefault(p, Set.of())) {
            if (!index.containsKey(q)) {
                connect(q, index, low, stack, onStack, found, counter);
                low.put(p, Math.min(low.get(p), low.get(q)));
            } else if (onStack.contains(q)) {
                low.put(p, Math.min(low.get(p), index.get(q)));
            }
        }
        if (low.get(p).equals(index.get(p))) {
            Set<String> group = new TreeSet<>();
            String q;
            do {
                q = stack.pop();
                onStack.remove(q);
                group.add(q);
            } while (!q.equals(p));
            if (group.size() > 1) {
                found.add(group);
            }
        }
    }
}
