package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The one boot for {@code quarkus.ketama.*} validation: start-up runs the extension's check and
 * stops, reporting several invalid settings together, each with its key. Every rule and message
 * is tested as the plain function it is in the runtime module's KetamaConfigValidationTest.
 */
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
