package io.ketama.router;

import io.ketama.testing.FreePorts;
import io.ketama.testing.LoopbackHazelcast;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Puts the app's embedded member on a port of 127.0.0.1 chosen at run time ({@link FreePorts}),
 * auto-increment off, in a cluster whose name no other test run shares, so parallel runs on one
 * machine neither join each other nor fight over ports; test members join it at its port.
 */
public class LoopbackCluster implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return LoopbackHazelcast.extensionKeys("ketama-test-" + UUID.randomUUID(), FreePorts.take(), List.of());
    }

    @Override
    public void stop() {
        // the app's member stops with the app
    }
}
