package io.ketama.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Locates ../shared/testdata (the nginx trace) from the build, wherever the checkout lives. */
public final class TestData {

    private TestData() {
    }

    public static Path dir() {
        String prop = System.getProperty("ketama.testdata");
        if (prop != null && Files.isDirectory(Path.of(prop))) {
            return Path.of(prop);
        }
        Path p = Path.of("").toAbsolutePath();
        for (int i = 0; i < 4 && p != null; i++, p = p.getParent()) {
            Path candidate = p.resolve("../shared/testdata").normalize();
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("../shared/testdata not found next to the checkout");
    }

    /** Each line of nginx-sample-upstream.csv as {uri, upstream}. */
    public static List<String[]> nginxTrace() throws IOException {
        List<String[]> out = new ArrayList<>();
        for (String line : Files.readAllLines(dir().resolve("nginx-sample-upstream.csv"))) {
            if (line.isBlank()) {
                continue;
            }
            int comma = line.lastIndexOf(',');
            out.add(new String[] {line.substring(0, comma), line.substring(comma + 1)});
        }
        return out;
    }

    /** The servers of nginx-sample.conf, parsed from its {@code server ADDRESS weight=N ...;} lines. */
    public static List<Node<String>> nginxServers() throws IOException {
        List<Node<String>> nodes = new ArrayList<>();
        for (String line : Files.readAllLines(dir().resolve("nginx-sample.conf"))) {
            String t = line.trim();
            if (!t.startsWith("server ") || !t.endsWith(";")) {
                continue;
            }
            String[] parts = t.substring(0, t.length() - 1).split("\\s+");
            int weight = 1;
            for (String part : parts) {
                if (part.startsWith("weight=")) {
                    weight = Integer.parseInt(part.substring(7));
                }
            }
            nodes.add(Node.of(HashIdentity.nginx(parts[1]), weight, parts[1]));
        }
        return nodes;
    }
}
