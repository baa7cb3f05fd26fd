package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.fail;

/** Several invalid settings are reported together, each with its key. */
class SeveralInvalidSettingsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfig.app(InvalidConfig.set(
                    "quarkus.ketama.migration.v2-share", "150",
                    "quarkus.ketama.hazelcast.port", "0",
                    "quarkus.ketama.member.weight", "-1"),
            "Invalid ketama configuration:",
            "quarkus.ketama.migration.v2-share must be a percentage from 0 to 100",
            "quarkus.ketama.hazelcast.port must be from 1 to 65535, was 0",
            "quarkus.ketama.member.weight must be an integer from 1 to 1000, was '-1'");

    @Test
    void startUpFails() {
        fail("start-up should have failed");
    }
}
