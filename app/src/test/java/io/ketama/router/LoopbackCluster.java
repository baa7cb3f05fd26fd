package io.ketama.router;

import io.ketama.testing.LoopbackHazelcast;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Puts the app's embedded member on the first port of 5901–5949 it can bind on 127.0.0.1, in a
 * cluster whose name no other test run shares, so parallel runs on one machine never join each
 * other; test members join it at its actual port.
 */
public class LoopbackCluster implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return LoopbackHazelcast.extensionKeys("ketama-test-" + UUID.randomUUID(), TestMember.FIRST_PORT, true, List.of());
    }

    @Override
    public void stop() {
        // the app's member stops with the app
    }
}
