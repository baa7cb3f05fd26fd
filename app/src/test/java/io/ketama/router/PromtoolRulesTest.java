package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules file checked and unit-tested by Prometheus's own {@code promtool} (Debian's
 * {@code prometheus} package; {@code k8s/observability/operator-checks.sh} installs it). Skipped,
 * saying so, where promtool is not on the PATH.
 */
class PromtoolRulesTest {

    private static Path promtool;

    @BeforeAll
    static void findPromtool() {
        promtool = onPath("promtool");
        assumeTrue(promtool != null, "promtool is not installed (Debian package prometheus): the rules are not checked by it here;"
                + " k8s/observability/operator-checks.sh installs it and runs these checks");
    }

    @Test
    void promtoolChecksTheRules() throws Exception {
        Result r = run(List.of(promtool.toString(), "check", "rules", ObservabilityFiles.RULES.toString()));
        assertThat(r.exit()).as("promtool check rules:%n%s", r.output()).isZero();
        assertThat(r.output()).contains("SUCCESS");
    }

    @Test
    void promtoolRunsTheUnitTestOfEveryAlert() throws Exception {
        Path tests = ObservabilityFiles.DIR.resolve("promtool-tests.yaml");
        Result r = run(List.of(promtool.toString(), "test", "rules", tests.toString()));
        assertThat(r.exit()).as("promtool test rules:%n%s", r.output()).isZero();
        assertThat(r.output()).contains("SUCCESS");
        // every alert of the rules file has a test that expects it to fire
        String testText = Files.readString(tests);
        for (var rule : ObservabilityFiles.rules()) {
            if (rule.containsKey("alert")) {
                assertThat(testText).as("a test of alert %s", rule.get("alert"))
                        .containsPattern("alertname: " + rule.get("alert") + "\\s+exp_alerts:\\s+- exp_labels");
            }
        }
    }

    @Test
    void promtoolRefusesABrokenRule() throws Exception {
        // the check above can fail: the same tool on a rule with a syntax error
        Path broken = Files.createTempFile("ketama-broken-rules", ".yaml");
        try {
            Files.writeString(broken, "groups:\n  - name: x\n    rules:\n      - alert: Broken\n        expr: sum(rate(ketama_router_requests_total[5m])\n");
            Result r = run(List.of(promtool.toString(), "check", "rules", broken.toString()));
            assertThat(r.exit()).as("promtool on a broken rule:%n%s", r.output()).isNotZero();
        } finally {
            Files.deleteIfExists(broken);
        }
    }

    private record Result(int exit, String output) {
    }

    private static Result run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(new ArrayList<>(command)).directory(ObservabilityFiles.DIR.toFile()).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("promtool ended").isTrue();
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    static Path onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, tool);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
