package io.ketama.k8s;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Runs the one external tool the check uses when installed (kubectl), bounded in time. */
final class Processes {
    private Processes() {
    }

    record Result(int exitCode, String stdout, String stderr) {
        /** Both streams, for messages. */
        String output() {
            return stderr.isEmpty() ? stdout : stdout + (stdout.endsWith("\n") ? "" : "\n") + stderr;
        }
    }

    /** Runs {@code command} in {@code dir} with no input; kills it (and only it) after {@code timeout}. */
    static Result run(List<String> command, Path dir, Duration timeout) {
        String shown = String.join(" ", command);
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("k8s-check-", ".out");
            err = Files.createTempFile("k8s-check-", ".err");
            Process p = new ProcessBuilder(command).directory(dir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            p.getOutputStream().close();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IllegalStateException(shown + " did not finish within " + timeout + "; output so far:\n"
                        + read(out) + read(err));
            }
            return new Result(p.exitValue(), read(out), read(err));
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + shown + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + shown, e);
        } finally {
            delete(out);
            delete(err);
        }
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    private static void delete(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a temp file left behind is harmless
            }
        }
    }

    /** The executable {@code name} on a PATH-style search list, if any. */
    static Optional<Path> onPath(String name, String searchPath) {
        if (searchPath == null || searchPath.isEmpty()) {
            return Optional.empty();
        }
        for (String dir : searchPath.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    static Optional<Path> onPath(String name) {
        return onPath(name, System.getenv("PATH"));
    }
}
