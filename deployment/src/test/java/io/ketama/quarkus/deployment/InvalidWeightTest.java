package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.fail;

/** quarkus.ketama.member.weight=0 stops start-up with a message naming the key and what is allowed. */
class InvalidWeightTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfig.app(InvalidConfig.set("quarkus.ketama.member.weight", "0"),
            "quarkus.ketama.member.weight must be an integer from 1 to 1000, was '0'");

    @Test
    void startUpFails() {
        fail("start-up should have failed");
    }
}
