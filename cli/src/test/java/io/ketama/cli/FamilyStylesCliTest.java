package io.ketama.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.core.FamilyVectors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code route} with the twemproxy and libmemcached styles answers what the programs themselves
 * answered (core's recorded vectors, {@code ketama-family/}): each recorded configuration written as
 * a servers file in the program's own syntax, all 6,000 keys on standard input, every answer line
 * compared; with {@code --candidates 3}, libmemcached's failover order of the first 1,000 keys.
 */
class FamilyStylesCliTest {

    @TempDir
    Path dir;

    private static final List<String> KEYS = FamilyVectors.keys();

    private static byte[] stdin(List<String> keys) {
        return (String.join("\n", keys) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void routeAnswersWhatTwemproxyAnswered() throws IOException {
        int configs = 0;
        for (FamilyVectors.Config c : FamilyVectors.read("/ketama-family/twemproxy.vectors.gz")) {
            Path file = dir.resolve("twemproxy-" + configs + ".txt");
            Files.writeString(file, String.join("\n", c.servers()) + "\n", StandardCharsets.UTF_8);
            List<String> args = new ArrayList<>(List.of("route", "--servers", file.toString(), "--hash-style", c.style()));
            if (c.hashTag() != null) {
                args.addAll(List.of("--hash-tag", c.hashTag()));
            }
            CliRun run = CliRun.of(stdin(KEYS), args.toArray(String[]::new));
            assertThat(run.status()).as(run.stderr()).isZero();
            String[] lines = run.stdout().split("\n");
            assertThat(lines).hasSize(KEYS.size());
            for (int k = 0; k < KEYS.size(); k++) {
                String server = c.servers().get(c.owners()[k]);
                String shown = server.contains(" ") ? server.substring(server.indexOf(' ') + 1) : server;
                assertThat(lines[k]).as("%s key %d", c, k).isEqualTo(shown);
            }
            configs++;
        }
        assertThat(configs).isEqualTo(16);
    }

    @Test
    void routeAnswersWhatLibmemcachedAnswered() throws IOException {
        int configs = 0;
        for (FamilyVectors.Config c : FamilyVectors.read("/ketama-family/libmemcached.vectors.gz")) {
            Path file = dir.resolve("libmemcached-" + configs + ".txt");
            List<String> written = new ArrayList<>();
            for (String s : c.servers()) {
                int w = s.lastIndexOf(':');
                written.add(s.substring(0, w) + " " + s.substring(w + 1));
            }
            Files.writeString(file, String.join("\n", written) + "\n", StandardCharsets.UTF_8);
            String style = "libmemcached-" + c.style();
            CliRun run = CliRun.of(stdin(KEYS), "route", "--servers", file.toString(), "--hash-style", style);
            assertThat(run.status()).as(run.stderr()).isZero();
            String[] lines = run.stdout().split("\n");
            for (int k = 0; k < KEYS.size(); k++) {
                assertThat(lines[k]).as("%s key %d", c, k).isEqualTo(written.get(c.owners()[k]).split(" ")[0]);
            }
            CliRun failover = CliRun.of(stdin(KEYS.subList(0, 1000)), "route", "--servers", file.toString(),
                    "--hash-style", style, "--candidates", "3");
            String[] candidates = failover.stdout().split("\n");
            for (Map.Entry<Integer, int[]> e : c.failover().entrySet()) {
                List<String> expected = new ArrayList<>();
                for (int i : e.getValue()) {
                    expected.add(written.get(i).split(" ")[0]);
                }
                assertThat(candidates[e.getKey()]).as("%s key %d", c, e.getKey()).isEqualTo(String.join(" ", expected));
            }
            configs++;
        }
        assertThat(configs).isEqualTo(44);
    }
}
