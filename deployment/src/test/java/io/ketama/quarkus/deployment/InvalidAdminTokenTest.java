package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The boot for the cluster-control keys, which a producer of their own validates: a guessable
 * admin token, a negative drain and a member allowlist entry that is not an address stop start-up
 * with a message naming each key and what is allowed (and not the token). The rules themselves:
 * runtime's KetamaConfigValidationTest.
 */
class InvalidAdminTokenTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfig.app(InvalidConfig.set(
                    "quarkus.ketama.admin.token", "secret",
                    "quarkus.ketama.drain.timeout", "-1s",
                    "quarkus.ketama.hazelcast.member-allowlist", "10.0.1.*,10.0.0.0/8"),
            "quarkus.ketama.admin.token must be at least 16 printable ASCII characters without spaces",
            "was 6 characters",
            "quarkus.ketama.drain.timeout must be from 0 to 10m",
            "quarkus.ketama.hazelcast.member-allowlist entry '10.0.0.0/8' is not allowed; allowed: an IPv4 address, with * for a "
                    + "whole octet (10.0.1.*), or an IPv6 address");

    @Test
    void startUpFails() {
        fail("start-up should have failed");
    }
}
