package io.ketama.router.tracing;

import io.opentelemetry.api.OpenTelemetry;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/**
 * The service's {@link Tracing}: OpenTelemetry's where {@code quarkus-opentelemetry} was enabled at
 * build ({@code quarkus.otel.enabled=true}: its {@link OpenTelemetry} bean exists), else
 * {@link Tracing#OFF}. Off is this service's default build: the extension then installs no tracer on
 * the HTTP server or client either, so an untraced member does no tracing work at all.
 */
@Singleton
class TracingProducer {

    private static final Logger LOG = Logger.getLogger(TracingProducer.class);

    @Produces
    @Singleton
    Tracing tracing(Instance<OpenTelemetry> otel) {
        if (!otel.isResolvable()) {
            return Tracing.OFF;
        }
        LOG.info("ketama-router tracing on: spans for the entry member, each forward, the owner and each origin fetch");
        return new OtelTracing(otel.get());
    }
}
