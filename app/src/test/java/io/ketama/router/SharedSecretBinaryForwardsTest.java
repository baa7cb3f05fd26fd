package io.ketama.router;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@link SharedSecretForwardsTest} with {@code ketama.router.forward.transport=binary}. */
@QuarkusTest
@TestProfile(SharedSecretBinaryForwardsTest.Profile.class)
class SharedSecretBinaryForwardsTest extends SharedSecretForwardsTest {

    public static class Profile extends WithSecret {
        @Override
        String transport() {
            return "binary";
        }
    }

    @Override
    String keyPrefix() {
        return "secret-binary-";
    }
}
