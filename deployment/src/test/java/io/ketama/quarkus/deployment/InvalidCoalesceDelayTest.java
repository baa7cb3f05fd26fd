package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.fail;

/** quarkus.ketama.rebuild.coalesce-delay=2m stops start-up with a message naming the key and what is allowed. */
class InvalidCoalesceDelayTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfig.app(InvalidConfig.set("quarkus.ketama.rebuild.coalesce-delay", "2m"),
            "quarkus.ketama.rebuild.coalesce-delay must be from 0 to 60s (e.g. 200ms), was PT2M");

    @Test
    void startUpFails() {
        fail("start-up should have failed");
    }
}
