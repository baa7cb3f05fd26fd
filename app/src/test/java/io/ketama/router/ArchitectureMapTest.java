package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code ARCHITECTURE.md} stays true: it names every main Java file of the repository (each
 * module's {@code src/main/java}, {@code package-info.java} aside, whose job is its package's) by
 * the path below its module, and names no file that is not there. Read from the working tree the
 * build runs in, so a file added, moved or removed without its line in the map fails the build.
 */
class ArchitectureMapTest {

    /** The repository's root: this module's parent. */
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    /** A file as the map names it in its "Every file" tables: {@code `module/`} headings, then {@code `Name.java`} rows. */
    private static final Pattern HEADING = Pattern.compile("^### `([^`]+)/` · `([^`]+)`");
    private static final Pattern ROW = Pattern.compile("^\\| `([A-Za-z0-9_]+\\.java)` \\| (.+) \\|$");

    @Test
    void theMapNamesEveryMainFileAndNoOther() throws IOException {
        Set<String> files = mainFiles();
        assertThat(files).as("main files found under %s", ROOT).hasSizeGreaterThan(100);
        Set<String> named = namedFiles(Files.readAllLines(ROOT.resolve("ARCHITECTURE.md")));
        assertThat(difference(files, named)).as("main files ARCHITECTURE.md does not name (module/package/File.java)").isEmpty();
        assertThat(difference(named, files)).as("files ARCHITECTURE.md names that are not there").isEmpty();
    }

    @Test
    void everyFileTheMapNamesHasAJob() throws IOException {
        for (String line : Files.readAllLines(ROOT.resolve("ARCHITECTURE.md"))) {
            Matcher row = ROW.matcher(line);
            if (row.matches()) {
                assertThat(row.group(2).trim()).as("the job of %s", row.group(1)).hasSizeGreaterThan(8);
            }
        }
    }

    @Test
    void everyFileTheProseNamesIsThere() throws IOException {
        Set<String> simpleNames = new TreeSet<>();
        try (Stream<Path> walk = Files.walk(ROOT)) {
            walk.filter(p -> p.toString().endsWith(".java")).filter(p -> !ROOT.relativize(p).toString().contains("target/"))
                    .forEach(p -> simpleNames.add(p.getFileName().toString()));
        }
        Set<String> mentioned = new TreeSet<>();
        Matcher m = Pattern.compile("(?<![A-Za-z0-9_])([A-Z][A-Za-z0-9_]+\\.java)").matcher(Files.readString(ROOT.resolve("ARCHITECTURE.md")));
        while (m.find()) {
            mentioned.add(m.group(1));
        }
        assertThat(difference(mentioned, simpleNames)).as("files ARCHITECTURE.md mentions that no module has").isEmpty();
    }

    /** {@code module/io.ketama.pkg/File.java} for every main Java file. */
    private static Set<String> mainFiles() throws IOException {
        try (Stream<Path> walk = Files.walk(ROOT)) {
            List<Path> sources = walk.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.getFileName().toString().equals("package-info.java"))
                    .filter(p -> ROOT.relativize(p).toString().replace('\\', '/').contains("/src/main/java/"))
                    .filter(p -> !ROOT.relativize(p).toString().contains("target/"))
                    .filter(p -> !ROOT.relativize(p).startsWith(".git"))
                    .collect(Collectors.toList());
            Set<String> out = new TreeSet<>();
            for (Path p : sources) {
                String relative = ROOT.relativize(p).toString().replace('\\', '/');
                int at = relative.indexOf("/src/main/java/");
                String module = relative.substring(0, at);
                String rest = relative.substring(at + "/src/main/java/".length());
                int slash = rest.lastIndexOf('/');
                out.add(module + "/" + rest.substring(0, slash).replace('/', '.') + "/" + rest.substring(slash + 1));
            }
            return out;
        }
    }

    private static Set<String> namedFiles(List<String> map) {
        Set<String> out = new TreeSet<>();
        String heading = null;
        for (String line : map) {
            Matcher h = HEADING.matcher(line);
            if (h.find()) {
                heading = h.group(1) + "/" + h.group(2) + "/";
                continue;
            }
            Matcher row = ROW.matcher(line);
            if (row.matches() && heading != null) {
                out.add(heading + row.group(1));
            }
        }
        return out;
    }

    private static Set<String> difference(Set<String> a, Set<String> b) {
        Set<String> out = new TreeSet<>(a);
        out.removeAll(b);
        return out;
    }
}
