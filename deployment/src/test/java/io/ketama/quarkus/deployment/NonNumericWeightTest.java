package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.fail;

/** quarkus.ketama.member.weight=abc stops start-up with a message naming the key and what is allowed. */
class NonNumericWeightTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfig.app(InvalidConfig.set("quarkus.ketama.member.weight", "abc"),
            "quarkus.ketama.member.weight",
            "\"abc\"", "Expected an integer value");

    @Test
    void startUpFails() {
        fail("start-up should have failed");
    }
}
