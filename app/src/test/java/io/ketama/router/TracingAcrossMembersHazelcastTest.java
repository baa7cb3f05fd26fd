package io.ketama.router;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@link TracingAcrossMembersTest} with {@code ketama.router.forward.transport=hazelcast}. */
@QuarkusTest
@TestProfile(TracingAcrossMembersHazelcastTest.Profile.class)
class TracingAcrossMembersHazelcastTest extends TracingAcrossMembersTest {

    public static class Profile extends TracingAcrossMembersTest.Profile {
        @Override
        String transport() {
            return "hazelcast";
        }
    }

    @Override
    String transport() {
        return "HAZELCAST";
    }

    @Override
    String keyPrefix() {
        return "trace-hazelcast-";
    }
}
