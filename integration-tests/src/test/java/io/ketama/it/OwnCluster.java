package io.ketama.it;

import io.ketama.testing.FreePorts;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;
import java.util.UUID;

/**
 * Settings for the packaged application under test, passed to its {@code java -jar}: a cluster
 * name of this run on loopback, so it never joins a member someone runs on this machine, on a
 * Hazelcast port chosen at run time ({@link FreePorts}, auto-increment off, asking only itself to
 * join) instead of the prod default 5701 and up, and HTTP on loopback too (the prod default listens
 * on every interface).
 */
public class OwnCluster implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        int port = FreePorts.take();
        return Map.of("quarkus.ketama.hazelcast.cluster-name", "ketama-it-" + UUID.randomUUID(),
                "quarkus.ketama.hazelcast.interface", "127.0.0.1",
                "quarkus.ketama.hazelcast.port", Integer.toString(port),
                "quarkus.ketama.hazelcast.port-auto-increment", "false",
                "quarkus.ketama.hazelcast.members", "127.0.0.1:" + port,
                "quarkus.http.host", "127.0.0.1");
    }

    @Override
    public void stop() {
    }
}
