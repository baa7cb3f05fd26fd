package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.fail;

/** quarkus.ketama.hazelcast.members=127.0.0.1:5701-5703 stops start-up with a message naming the key and what is allowed. */
class PortRangeTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfig.app(InvalidConfig.set("quarkus.ketama.hazelcast.members", "127.0.0.1:5701-5703"),
            "quarkus.ketama.hazelcast.members entry '127.0.0.1:5701-5703' is a port range, which Hazelcast rejects; allowed: host or host:port (IPv6 as [addr]:port), listed one by one");

    @Test
    void startUpFails() {
        fail("start-up should have failed");
    }
}
