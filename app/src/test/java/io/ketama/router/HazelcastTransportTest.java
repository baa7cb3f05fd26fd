package io.ketama.router;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@link TransportsTest} with {@code ketama.router.forward.transport=hazelcast}. */
@QuarkusTest
@TestProfile(HazelcastTransportTest.Profile.class)
class HazelcastTransportTest extends TransportsTest {

    public static class Profile extends Transport {
        @Override
        String transport() {
            return "hazelcast";
        }
    }

    @Override
    io.ketama.router.forwarding.TransportKind transport() {
        return io.ketama.router.forwarding.TransportKind.HAZELCAST;
    }

    @Override
    String keyPrefix() {
        return "tr-hazelcast-";
    }
}
