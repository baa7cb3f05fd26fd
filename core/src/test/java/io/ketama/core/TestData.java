package io.ketama.core;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The nginx trace in the test resources ({@code nginx-trace/}, see its README): the placements a
 * real nginx logged, as files on disk so the CLI tests can name them as {@code --servers}.
 */
public final class TestData {

    private static final String DIR = "nginx-trace";

    private TestData() {
    }

    public static Path dir() {
        URL url = TestData.class.getClassLoader().getResource(DIR + "/nginx-sample.conf");
        if (url == null) {
            throw new IllegalStateException(DIR + "/ is missing from the test class path (core/src/test/resources)");
        }
        try {
            return Path.of(url.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("test resources are not on a file system: " + url, e);
        }
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
