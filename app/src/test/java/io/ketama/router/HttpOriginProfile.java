package io.ketama.router;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/**
 * The app with a real HTTP origin ({@link HttpTestOrigin}, started by the test on the port named
 * here: the app fetches only when asked), taking origin bodies of at most 64 KiB, on a loopback
 * cluster of its own.
 */
public class HttpOriginProfile implements QuarkusTestProfile {

    /** {@code ketama.router.origin.max-body-bytes} of the app (and of the test members' origin clients). */
    static final int MAX_BODY_BYTES = 64 * 1024;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("ketama.router.origin.base-url", HttpTestOrigin.baseUrl(HttpTestOrigin.freePort()),
                "ketama.router.origin.max-body-bytes", Long.toString(MAX_BODY_BYTES));
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(LoopbackCluster.class));
    }
}
