package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Invalid cluster-control keys (the admin token, the drain) and invalid ring and migration keys
 * are reported in one start-up failure, so a user fixes them all before the next start instead
 * of learning of the second group only after fixing the first.
 */
class AllInvalidSettingsTogetherTest {

    static final List<String> EXPECTED = List.of(
            "quarkus.ketama.admin.token must be at least 16 printable ASCII characters without spaces",
            "quarkus.ketama.drain.timeout must be from 0 to 10m",
            "quarkus.ketama.migration.v2-share must be a percentage from 0 to 100",
            "quarkus.ketama.member.weight must be an integer from 1 to 1000, was '-1'");

    @RegisterExtension
    static final QuarkusUnitTest APP = new TestCluster("ketama-invalid-together", 1).app(
                    "quarkus.ketama.admin.token", "secret",
                    "quarkus.ketama.drain.timeout", "-1s",
                    "quarkus.ketama.migration.v2-share", "150",
                    "quarkus.ketama.member.weight", "-1")
            .assertException(t -> {
                List<String> messages = new ArrayList<>();
                for (Throwable c = t; c != null && messages.size() < 20; c = c.getCause()) {
                    messages.add(String.valueOf(c.getMessage()));
                }
                assertThat(messages).as("one failure's message names every invalid key")
                        .anySatisfy(m -> assertThat(m).contains(EXPECTED));
            });

    @Test
    void startUpFails() {
        fail("start-up should have failed");
    }
}
