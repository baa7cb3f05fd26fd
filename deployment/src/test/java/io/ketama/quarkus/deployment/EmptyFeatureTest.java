package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.fail;

/** quarkus.ketama.member.features=ssd,,pci stops start-up with a message naming the key and what is allowed. */
class EmptyFeatureTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfig.app(InvalidConfig.set("quarkus.ketama.member.features", "ssd,,pci"),
            "quarkus.ketama.member.features has an empty feature in 'ssd,,pci'; allowed: comma-separated non-empty tags");

    @Test
    void startUpFails() {
        fail("start-up should have failed");
    }
}
