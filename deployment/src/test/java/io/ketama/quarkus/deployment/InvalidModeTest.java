package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.fail;

/** quarkus.ketama.migration.mode=v3 stops start-up with a message naming the key and what is allowed. */
class InvalidModeTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfig.app(InvalidConfig.set("quarkus.ketama.migration.mode", "v3"),
            "quarkus.ketama.migration.mode must be one of v1, v2, split, was 'v3'");

    @Test
    void startUpFails() {
        fail("start-up should have failed");
    }
}
