package io.ketama.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.core.TestData;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged jar, started as users start it: {@code java -jar cli/target/ketama-cli.jar}. */
class KetamaCliJarIT {

    private record Result(int status, String stdout, String stderr) {
    }

    private static Result java(String stdin, String... args) throws Exception {
        Path jar = Path.of(System.getProperty("ketama.jar", "target/ketama-cli.jar"));
        assertThat(jar).exists();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        try {
            CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
            CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
            try (OutputStream in = p.getOutputStream()) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("jar finished").isTrue();
            return new Result(p.exitValue(), new String(out.get(), StandardCharsets.UTF_8), new String(err.get(), StandardCharsets.UTF_8));
        } finally {
            p.destroyForcibly();
        }
    }

    private static byte[] readAll(InputStream s) {
        try {
            return s.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void routesTheNginxTraceThroughTheRealJar() throws Exception {
        List<String[]> trace = TestData.nginxTrace();
        String keys = trace.stream().map(t -> t[0] + "\n").collect(Collectors.joining());
        String expected = trace.stream().map(t -> t[1] + "\n").collect(Collectors.joining());
        Result r = java(keys, "route", "--servers", TestData.dir().resolve("nginx-sample-upstreams.txt").toString());
        assertThat(r.stderr()).isEmpty();
        assertThat(r.status()).isZero();
        assertThat(r.stdout()).isEqualTo(expected);
    }

    @Test
    void badArgumentsExitWithStatus2AndOneLine(@TempDir Path dir) throws Exception {
        Result r = java("", "route", "--servers", dir.resolve("none.txt").toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr().lines()).singleElement().asString().contains("does not exist");
    }
}
