package io.ketama.router;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/**
 * The app with a real HTTP origin ({@link HttpTestOrigin}, started by the test on the port named
 * here: the app fetches only when asked), on a loopback cluster of its own.
 */
public class HttpOriginProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("ketama.router.origin.base-url", HttpTestOrigin.baseUrl(HttpTestOrigin.freePort()));
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(LoopbackCluster.class));
    }
}
