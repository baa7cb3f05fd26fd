package io.ketama.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * This module's packaged application run as a user runs it: {@code java -jar} in the prod profile,
 * with no JVM flags, its output in a file. Stopped (the process started here, and only it) by
 * {@link #close}.
 */
final class ProdMember implements AutoCloseable {

    static final Path JAR = Path.of("target", "quarkus-app", "quarkus-run.jar");
    private static final Pattern LISTENING = Pattern.compile("Listening on: (http://[^\\s,]+)");

    private final Process process;
    final Path log;
    final String baseUrl;

    /** Starts the jar with these system properties ({@code -Dkey=value}) and waits until it serves HTTP. */
    ProdMember(Path log, Duration deadline, String... properties) throws IOException, InterruptedException {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR.toAbsolutePath() + " is missing: run the tests after package (mvn verify)");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String p : properties) {
            command.add("-D" + p);
        }
        command.add("-Dquarkus.http.host=127.0.0.1");
        command.add("-Dquarkus.http.port=0");
        command.add("-jar");
        command.add(JAR.toString());
        this.log = log;
        Files.createDirectories(log.getParent());
        this.process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        this.baseUrl = awaitListening(deadline);
    }

    private String awaitListening(Duration deadline) throws IOException, InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        while (System.nanoTime() < end) {
            Matcher m = LISTENING.matcher(Files.readString(log));
            if (m.find()) {
                return m.group(1).replace("0.0.0.0", "127.0.0.1");
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("java -jar " + JAR + " exited with " + process.exitValue() + ":\n" + Files.readString(log));
            }
            Thread.sleep(100);
        }
        close();
        throw new AssertionError("java -jar " + JAR + " did not listen within " + deadline + ":\n" + Files.readString(log));
    }

    String output() throws IOException {
        return Files.readString(log);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
