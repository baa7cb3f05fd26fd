package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.fail;

/** quarkus.ketama.hazelcast.port=70000 stops start-up with a message naming the key and what is allowed. */
class InvalidPortTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfig.app(InvalidConfig.set("quarkus.ketama.hazelcast.port", "70000"),
            "quarkus.ketama.hazelcast.port must be from 1 to 65535, was 70000");

    @Test
    void startUpFails() {
        fail("start-up should have failed");
    }
}
