package io.ketama.router;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;
import java.util.UUID;

/**
 * Puts the app's embedded member on a free port of 5901–5949 on 127.0.0.1, in a cluster whose
 * name no other test run shares, so parallel runs on one machine never join each other.
 */
public class LoopbackCluster implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        int port = TestMember.freePort();
        return Map.of(
                "quarkus.ketama.hazelcast.cluster-name", "ketama-test-" + UUID.randomUUID(),
                "quarkus.ketama.hazelcast.port", Integer.toString(port),
                "quarkus.ketama.hazelcast.port-auto-increment", "false",
                "quarkus.ketama.hazelcast.members", "127.0.0.1:" + port,
                "quarkus.ketama.hazelcast.interface", "127.0.0.1");
    }

    @Override
    public void stop() {
        // the app's member stops with the app
    }
}
