package io.ketama.quarkus.runtime;

import io.quarkus.arc.Arc;
import io.quarkus.runtime.annotations.Recorder;
import io.quarkus.runtime.shutdown.ShutdownListener;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

/**
 * Makes, at run time, the admin plane's handler (the build step mounts it on the management
 * interface) and the listener that drains this member on a graceful stop.
 *
 * <p>Public, with public methods, as every Quarkus recorder: the code the build records calls it
 * from another package; not an API.
 */
@Recorder
public class KetamaClusterRecorder {

    /** The handler of {@code /q/ketama/migration}; it finds the beans when the first request comes. */
    public Handler<RoutingContext> migrationHandler() {
        return memberOnly(new MigrationAdminHandler(() -> Arc.container().instance(MemberLifecycle.class).get().rings(),
                () -> Arc.container().instance(ClusterSettings.class).get().adminToken()));
    }

    /** The handler of {@code /q/ketama/ramp}. */
    public Handler<RoutingContext> rampHandler() {
        return memberOnly(new RampAdminHandler(() -> Arc.container().instance(MemberLifecycle.class).get().rings().ramp(),
                () -> Arc.container().instance(ClusterSettings.class).get().adminToken()));
    }

    /** The handler of {@code /q/ketama/quorum}. */
    public Handler<RoutingContext> quorumHandler() {
        return memberOnly(new QuorumAdminHandler(() -> Arc.container().instance(MemberLifecycle.class).get().rings(),
                () -> Arc.container().instance(ClusterSettings.class).get().adminToken()));
    }

    /**
     * {@code handler} on a member; on a Hazelcast client, which has no admin plane (it is on no ring and
     * counts toward no quorum), a 404 problem that says where the admin plane is.
     */
    private static Handler<RoutingContext> memberOnly(Handler<RoutingContext> handler) {
        return rc -> {
            if (Arc.container().instance(MemberLifecycle.class).get().isClient()) {
                AdminHttp.problem(rc, 404, "client-has-no-admin-plane", "This application is a Hazelcast client",
                        "a client follows the cluster's rings and migration state and has no admin plane; use a member's "
                                + "(its management port, " + rc.request().path() + ")");
                return;
            }
            handler.handle(rc);
        };
    }

    /** Drains this member at the start of a graceful stop. */
    public ShutdownListener drainListener() {
        return new DrainOnShutdown();
    }
}
