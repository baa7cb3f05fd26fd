package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * quarkus.ketama.migration.mode=v3 stops start-up with a message naming the key, the value and
 * what is allowed (SmallRye Config's own message for an enum-typed key).
 */
class InvalidModeTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfig.app(InvalidConfig.set("quarkus.ketama.migration.mode", "v3"),
            "quarkus.ketama.migration.mode with the config value \"v3\"", "allowed values: split,v1,v2");

    @Test
    void startUpFails() {
        fail("start-up should have failed");
    }
}
