package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.testing.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The packaged service given a forward secret too short to keep anyone out: start-up fails with a
 * message naming the key and what is allowed, and the secret itself is not printed. Given several
 * invalid keys, start-up names every one of them in one message ({@link RouterSettings#from}).
 * Hazelcast on a port chosen at run time ({@link FreePorts}), HTTP on any free port.
 */
class BadForwardSecretIT {

    private static final Path JAR = Path.of(System.getProperty("ketama.app.jar", "target/quarkus-app/quarkus-run.jar"));

    @Test
    void aShortSecretStopsStartUpWithAClearMessage() throws IOException, InterruptedException {
        String secret = "pa55word";
        Path log = Files.createTempFile("bad-forward-secret", ".log");
        String output = failedStart(log, Map.of("KETAMA_ROUTER_FORWARD_SECRET", secret));
        assertThat(output).contains("invalid configuration ketama.router.forward.secret: must be at least 16 characters, was 8")
                .doesNotContain(secret);
        Files.deleteIfExists(log);
    }

    @Test
    void everyInvalidKeyIsNamedAtOnce() throws IOException, InterruptedException {
        Path log = Files.createTempFile("bad-router-settings", ".log");
        String output = failedStart(log, Map.of(
                "KETAMA_ROUTER_CACHE_MAX_BYTES", "0",
                "KETAMA_ROUTER_ADMISSION_MAX_IN_FLIGHT", "0",
                "KETAMA_ROUTER_HOT_KEYS_TOP", "5000",
                "KETAMA_ROUTER_FORWARD_MAX_RETRIES", "99"));
        assertThat(output).contains("4 invalid configuration keys:")
                .contains("invalid configuration ketama.router.cache.max-bytes: must be 1 to ")
                .contains("invalid configuration ketama.router.admission.max-in-flight: must be in 1..1000000, was 0")
                .contains("invalid configuration ketama.router.hot-keys.top: must be 1 to 1024 keys, e.g. 32; was 5000")
                .contains("invalid configuration ketama.router.forward.max-retries: forward max retries must be in 0..10, was 99");
        Files.deleteIfExists(log);
    }

    /** Starts the packaged service with {@code environment} added; asserts it stops with an error; its output. */
    private static String failedStart(Path log, Map<String, String> environment) throws IOException, InterruptedException {
        int port = FreePorts.take();
        ProcessBuilder builder = new ProcessBuilder(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:+UseSerialGC",
                "-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=0",
                "-Dquarkus.management.host=127.0.0.1", "-Dquarkus.management.port=0",
                "-Dquarkus.ketama.hazelcast.cluster-name=ketama-it-" + UUID.randomUUID(),
                "-Dquarkus.ketama.hazelcast.port=" + port,
                "-Dquarkus.ketama.hazelcast.port-auto-increment=false",
                "-Dquarkus.ketama.hazelcast.interface=127.0.0.1",
                "-Dquarkus.ketama.hazelcast.members=127.0.0.1:" + port,
                "-Dhazelcast.phone.home.enabled=false",
                "-jar", JAR.toAbsolutePath().toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        try {
            assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("start-up ends, log %s", log).isTrue();
            String output = Files.readString(log);
            assertThat(process.exitValue()).as(output).isNotZero();
            return output;
        } finally {
            process.destroyForcibly();
        }
    }
}
