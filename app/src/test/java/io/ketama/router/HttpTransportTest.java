package io.ketama.router;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@link TransportsTest} with {@code ketama.router.forward.transport=http}. */
@QuarkusTest
@TestProfile(HttpTransportTest.Profile.class)
class HttpTransportTest extends TransportsTest {

    public static class Profile extends Transport {
        @Override
        String transport() {
            return "http";
        }
    }

    @Override
    io.ketama.router.forwarding.TransportKind transport() {
        return io.ketama.router.forwarding.TransportKind.HTTP;
    }

    @Override
    String keyPrefix() {
        return "tr-http-";
    }
}
