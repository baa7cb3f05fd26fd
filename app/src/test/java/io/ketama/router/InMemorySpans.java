package io.ketama.router;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The OpenTelemetry SDK's in-memory exporter as a CDI bean: where a test builds the app with
 * {@code quarkus.otel.enabled=true}, Quarkus exports every finished span to it as well
 * ({@link TracingAcrossMembersTest}); in an untraced build nothing uses it.
 */
@Singleton
class InMemorySpans {

    @Produces
    @Singleton
    InMemorySpanExporter exporter() {
        return InMemorySpanExporter.create();
    }
}
