package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.testing.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The packaged service given a forward secret too short to keep anyone out: start-up fails with a
 * message naming the key and what is allowed, and the secret itself is not printed. Hazelcast on a
 * port chosen at run time ({@link FreePorts}), HTTP on any free port.
 */
class BadForwardSecretIT {

    private static final Path JAR = Path.of(System.getProperty("ketama.app.jar", "target/quarkus-app/quarkus-run.jar"));

    @Test
    void aShortSecretStopsStartUpWithAClearMessage() throws IOException, InterruptedException {
        String secret = "pa55word";
        int port = FreePorts.take();
        Path log = Files.createTempFile("bad-forward-secret", ".log");
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
        builder.environment().put("KETAMA_ROUTER_FORWARD_SECRET", secret);
        Process process = builder.start();
        try {
            assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("start-up ends, log %s", log).isTrue();
            String output = Files.readString(log);
            assertThat(process.exitValue()).as(output).isNotZero();
            assertThat(output).contains("invalid configuration ketama.router.forward.secret: must be at least 16 characters, was 8")
                    .doesNotContain(secret);
        } finally {
            process.destroyForcibly();
        }
        Files.deleteIfExists(log);
    }
}
