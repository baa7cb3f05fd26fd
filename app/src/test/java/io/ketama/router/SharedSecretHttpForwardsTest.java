package io.ketama.router;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@link SharedSecretForwardsTest} with {@code ketama.router.forward.transport=http}. */
@QuarkusTest
@TestProfile(SharedSecretHttpForwardsTest.Profile.class)
class SharedSecretHttpForwardsTest extends SharedSecretForwardsTest {

    public static class Profile extends WithSecret {
        @Override
        String transport() {
            return "http";
        }
    }

    @Override
    String keyPrefix() {
        return "secret-http-";
    }
}
