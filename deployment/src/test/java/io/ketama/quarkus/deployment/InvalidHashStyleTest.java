package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * quarkus.ketama.hash-style=ketama stops start-up with a message naming the key, the value and
 * what is allowed (SmallRye Config's own message for an enum-typed key).
 */
class InvalidHashStyleTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfig.app(InvalidConfig.set("quarkus.ketama.hash-style", "ketama"),
            "quarkus.ketama.hash-style with the config value \"ketama\"",
            // SmallRye lists the allowed values in its own (hash) order
            "allowed values: ", "nginx", "pingora", "spymemcached", "spymemcached-weighted", "hashring");

    @Test
    void startUpFails() {
        fail("start-up should have failed");
    }
}
