package io.ketama.router;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@link TransportsTest} with {@code ketama.router.forward.transport=binary}. */
@QuarkusTest
@TestProfile(BinaryTransportTest.Profile.class)
class BinaryTransportTest extends TransportsTest {

    public static class Profile extends Transport {
        @Override
        String transport() {
            return "binary";
        }
    }

    @Override
    io.ketama.router.forwarding.TransportKind transport() {
        return io.ketama.router.forwarding.TransportKind.BINARY;
    }

    @Override
    String keyPrefix() {
        return "tr-binary-";
    }
}
