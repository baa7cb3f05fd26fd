package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.fail;

/** quarkus.ketama.v2.points-per-weight=0 stops start-up with a message naming the key and what is allowed. */
class InvalidPointsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfig.app(InvalidConfig.set("quarkus.ketama.v2.points-per-weight", "0"),
            "quarkus.ketama.v2.points-per-weight must be an integer >= 1, was 0");

    @Test
    void startUpFails() {
        fail("start-up should have failed");
    }
}
