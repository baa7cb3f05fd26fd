package io.ketama.quarkus.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The extension's API package ({@code io.ketama.quarkus}) names nothing of its wiring
 * ({@code io.ketama.quarkus.runtime}, {@code io.ketama.quarkus.devui}): not in an import, not in a
 * fully qualified name, not in a javadoc link. And the extension's packages do not name each other
 * in a circle. The wiring's public types are only those something outside it must name. Read from the
 * sources, so a {@code {@link}} that would compile into nothing counts too.
 */
class ApiBoundaryTest {

    private static final Path SOURCES = Path.of("src", "main", "java", "io", "ketama", "quarkus");
    private static final Pattern NAMED = Pattern.compile("io\\.ketama\\.quarkus(\\.(runtime|devui))?\\b");

    @Test
    void theApiPackageNamesNothingOfTheWiring() throws IOException {
        List<String> offending = new ArrayList<>();
        try (Stream<Path> files = Files.list(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    if (lines.get(i).contains("io.ketama.quarkus.runtime") || lines.get(i).contains("io.ketama.quarkus.devui")) {
                        offending.add(file.getFileName() + ":" + (i + 1) + ": " + lines.get(i).trim());
                    }
                }
            }
        }
        assertThat(offending).as("lines of the API package that name the wiring").isEmpty();
    }

    @Test
    void theExtensionsPackagesNameEachOtherInNoCircle() throws IOException {
        Map<String, Set<String>> uses = new LinkedHashMap<>();
        for (String pkg : List.of("", "runtime", "devui")) {
            Path dir = pkg.isEmpty() ? SOURCES : SOURCES.resolve(pkg);
            String name = pkg.isEmpty() ? "api" : pkg;
            Set<String> named = new LinkedHashSet<>();
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    Matcher m = NAMED.matcher(Files.readString(file));
                    while (m.find()) {
                        String target = m.group(2) == null ? "api" : m.group(2);
                        if (!target.equals(name)) {
                            named.add(target);
                        }
                    }
                }
            }
            uses.put(name, named);
        }
        assertThat(uses.get("api")).as("the API names no other package").isEmpty();
        for (String from : uses.keySet()) {
            for (String to : uses.get(from)) {
                assertThat(uses.get(to)).as(from + " names " + to + ", which names it back").doesNotContain(from);
            }
        }
        assertThat(uses.get("runtime")).as("what the runtime names").contains("api");
    }

    /**
     * Public in the wiring: what Quarkus's generated code and build steps name ({@code KetamaClusterRecorder},
     * {@code RegisteredClasses}), what {@link java.util.ServiceLoader} makes ({@code SettingsCheck}), and the
     * client role for an application outside Quarkus ({@code ClientFollower} and the {@code RingSettings} it
     * takes). Other modules' tests reach the rest through {@code MemberPart}, in the test jar.
     */
    @Test
    void theWiringsPublicTypesAreOnlyThoseNamedFromOutside() throws IOException {
        Set<String> publicTypes = new java.util.TreeSet<>();
        Pattern topLevel = Pattern.compile("(?m)^public\\s+(?:final\\s+|abstract\\s+)*(?:class|interface|record|enum)\\s+(\\w+)");
        try (Stream<Path> files = Files.list(SOURCES.resolve("runtime"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = topLevel.matcher(Files.readString(file));
                if (m.find()) {
                    publicTypes.add(m.group(1));
                }
            }
        }
        assertThat(publicTypes).containsExactlyInAnyOrder("KetamaClusterRecorder", "RegisteredClasses", "SettingsCheck", "ClientFollower",
                "RingSettings");
    }
}
