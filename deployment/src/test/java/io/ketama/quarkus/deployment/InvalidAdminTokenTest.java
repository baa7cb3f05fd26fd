package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The boot for the cluster-control keys, which a producer of their own validates: a guessable
 * admin token and a negative drain stop start-up with a message naming each key and what is
 * allowed (and not the token). The rules themselves: runtime's KetamaConfigValidationTest.
 */
class InvalidAdminTokenTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfig.app(InvalidConfig.set(
                    "quarkus.ketama.admin.token", "secret",
                    "quarkus.ketama.drain.timeout", "-1s"),
            "quarkus.ketama.admin.token must be at least 16 printable ASCII characters without spaces",
            "was 6 characters",
            "quarkus.ketama.drain.timeout must be from 0 to 10m");

    @Test
    void startUpFails() {
        fail("start-up should have failed");
    }
}
