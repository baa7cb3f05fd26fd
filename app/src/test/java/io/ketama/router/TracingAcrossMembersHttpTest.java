package io.ketama.router;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@link TracingAcrossMembersTest} with {@code ketama.router.forward.transport=http}. */
@QuarkusTest
@TestProfile(TracingAcrossMembersHttpTest.Profile.class)
class TracingAcrossMembersHttpTest extends TracingAcrossMembersTest {

    public static class Profile extends TracingAcrossMembersTest.Profile {
        @Override
        String transport() {
            return "http";
        }
    }

    @Override
    String transport() {
        return "HTTP";
    }

    @Override
    String keyPrefix() {
        return "trace-http-";
    }
}
