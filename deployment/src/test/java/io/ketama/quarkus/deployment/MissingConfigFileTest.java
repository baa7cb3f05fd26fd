package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.fail;

/** quarkus.ketama.hazelcast.config-file=/nonexistent/hazelcast.yaml stops start-up with a message naming the key and what is allowed. */
class MissingConfigFileTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfig.app(InvalidConfig.set("quarkus.ketama.hazelcast.config-file", "/nonexistent/hazelcast.yaml"),
            "quarkus.ketama.hazelcast.config-file '/nonexistent/hazelcast.yaml' is neither a readable file nor a class-path resource");

    @Test
    void startUpFails() {
        fail("start-up should have failed");
    }
}
