package io.ketama.quarkus.runtime;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.runtime.shutdown.ShutdownListener;
import org.jboss.logging.Logger;

/**
 * Drains this member in the first phase of a graceful stop ({@link #preShutdown}): Quarkus calls it
 * before the HTTP server stops taking requests and before any {@code ShutdownEvent} observer, so
 * the member still serves everything routed to it while the others let it go.
 */
final class DrainOnShutdown implements ShutdownListener {

    private static final Logger LOG = Logger.getLogger(DrainOnShutdown.class);

    @Override
    public void preShutdown(ShutdownNotification notification) {
        try {
            ArcContainer container = Arc.container();
            if (container != null && container.isRunning()) {
                try (InstanceHandle<MemberLifecycle> member = container.instance(MemberLifecycle.class)) {
                    if (member.isAvailable()) {
                        member.get().drain();
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("ketama: drain interrupted; stopping without it");
        } catch (RuntimeException e) {
            LOG.warnf(e, "ketama: drain failed; stopping without it");
        } finally {
            notification.done();
        }
    }
}
