package io.ketama.k8s;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Offline validation of Kubernetes objects against the Kubernetes schema, with the npm package
 * kubernetes-models run by node (src/test/node/validate.mjs). Installs the locked npm packages into
 * target/node once ({@code npm ci}), again only when package-lock.json changes.
 */
final class SchemaValidator {
    private static final List<String> NODE_FILES = List.of("package.json", "package-lock.json", "validate.mjs");
    private static SchemaValidator instance;

    private final Path node;
    private final Path work;

    record Result(int exitCode, String output) {
        boolean valid() {
            return exitCode == 0;
        }
    }

    private SchemaValidator(Path node, Path work) {
        this.node = node;
        this.work = work;
    }

    /** The validator, installed on first use. Fails with instructions when node or npm are missing. */
    static synchronized SchemaValidator get() {
        if (instance == null) {
            instance = install(Path.of(System.getProperty("ketama.node.src", "src/test/node")),
                    Path.of(System.getProperty("ketama.node.work", "target/node")), System.getenv("PATH"));
        }
        return instance;
    }

    /** Finds node and npm on {@code searchPath} and installs the locked packages into {@code work}. */
    static SchemaValidator install(Path src, Path work, String searchPath) {
        Path node = Processes.onPath("node", searchPath).orElseThrow(() -> missing("node"));
        Path npm = Processes.onPath("npm", searchPath).orElseThrow(() -> missing("npm"));
        try {
            Files.createDirectories(work);
            String lock = Files.readString(src.resolve("package-lock.json"));
            Path stamp = work.resolve("node_modules/.installed-from-lock");
            boolean fresh = Files.isRegularFile(stamp) && Files.readString(stamp).equals(lock);
            for (String f : NODE_FILES) {
                Files.copy(src.resolve(f), work.resolve(f), StandardCopyOption.REPLACE_EXISTING);
            }
            if (!fresh) {
                Processes.Result r = Processes.run(List.of(npm.toString(), "ci", "--no-audit", "--no-fund"), work,
                        Duration.ofMinutes(5));
                if (r.exitCode() != 0) {
                    throw new IllegalStateException("npm ci in " + work + " failed (exit " + r.exitCode()
                            + "); the check needs the npm registry once, then works offline from the npm cache:\n"
                            + r.output());
                }
                Files.writeString(stamp, lock);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot prepare the node validator in " + work + ": " + e.getMessage(), e);
        }
        return new SchemaValidator(node, work);
    }

    private static IllegalStateException missing(String tool) {
        return new IllegalStateException(tool + " is not on PATH. The Kubernetes manifest check (module k8s-check)"
                + " validates k8s/ offline with node and npm (Node.js 20 or newer): install Node.js, or leave this"
                + " module out of a local build with ./mvnw verify -pl '!k8s-check'. CI has them.");
    }

    /** Validates every object of the given multi-document YAML files. */
    Result validate(List<Path> files) {
        List<String> cmd = new ArrayList<>(List.of(node.toString(), work.resolve("validate.mjs").toString()));
        files.forEach(f -> cmd.add(f.toAbsolutePath().toString()));
        Processes.Result r = Processes.run(cmd, work, Duration.ofMinutes(1));
        // node warns about nothing we need; keep stderr for unexpected failures only
        return new Result(r.exitCode(), r.exitCode() <= 1 ? r.stdout() : r.output());
    }

    /** Writes {@code objects} to {@code file} (for the record in target/) and validates them. */
    Result validate(List<Map<String, Object>> objects, Path file) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, Yamls.dumpAll(objects));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return validate(List.of(file));
    }
}
