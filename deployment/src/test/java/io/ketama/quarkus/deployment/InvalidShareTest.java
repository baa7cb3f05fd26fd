package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.fail;

/** quarkus.ketama.migration.v2-share=150 stops start-up with a message naming the key and what is allowed. */
class InvalidShareTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfig.app(InvalidConfig.set("quarkus.ketama.migration.v2-share", "150"),
            "quarkus.ketama.migration.v2-share must be a percentage from 0 to 100 (decimals allowed), was 150.0");

    @Test
    void startUpFails() {
        fail("start-up should have failed");
    }
}
