package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.tracing.Tracing;
import io.ketama.testing.Await;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One trace per request across two real members: the app built with {@code quarkus-opentelemetry}
 * enabled is the entry member, a {@link TestMember} (a real Hazelcast member with the real receiver,
 * key server and origin, on event loops of its own) owns the key. A client's {@code traceparent}
 * starts the trace; the entry member's HTTP server span and its {@code ketama route} span, the
 * {@code ketama forward} client span, the owner's {@code ketama serve} span (its parent read from the
 * binary frame, {@code SERVE_TRACED}) and its {@code ketama origin fetch} span are one trace, each the
 * child of the one before, with the key's ring version, owner, cache result and failover on the entry
 * span. The owner's spans go to the same in-memory exporter: it traces with the app's
 * {@link Tracing}, as its own process would with its own.
 */
@QuarkusTest
@TestProfile(TracingAcrossMembersTest.Profile.class)
class TracingAcrossMembersTest extends ClusterTest {

    private static final AttributeKey<String> RING = AttributeKey.stringKey("ketama.ring.version");
    private static final AttributeKey<String> OWNER = AttributeKey.stringKey("ketama.owner");
    private static final AttributeKey<String> CACHE = AttributeKey.stringKey("ketama.cache");
    private static final AttributeKey<Long> FAILOVER = AttributeKey.longKey("ketama.failover");
    private static final String CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CLIENT_SPAN = "00f067aa0ba902b7";
    private static final String CLIENT_PARENT = "00-" + CLIENT_TRACE + "-" + CLIENT_SPAN + "-01";

    public static class Profile implements QuarkusTestProfile {
        String transport() {
            return "binary";
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.otel.enabled", "true",
                    "quarkus.otel.exporter.otlp.enabled", "false",
                    "quarkus.otel.bsp.schedule.delay", "50ms",
                    "ketama.router.forward.transport", transport(),
                    // the http transport publishes the member's HTTP port: a fixed one, chosen free at run time
                    "quarkus.http.test-port", Integer.toString(io.ketama.testing.FreePorts.take()),
                    "ketama.router.near-cache.enabled", "false");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(LoopbackCluster.class));
        }
    }

    @Inject
    Tracing tracing;

    @Inject
    InMemorySpanExporter spans;

    /** The transport's name as the forward span says it. */
    String transport() {
        return "BINARY";
    }

    TestMember owner;
    TestMember other;

    @Override
    String keyPrefix() {
        return "trace-";
    }

    @Override
    void addMembers() {
        owner = cluster.add(Set.of());
        other = cluster.add(Set.of());
        owner.receiver.tracing(tracing);
        other.receiver.tracing(tracing);
    }

    @BeforeEach
    void forgetSpans() {
        spans.reset();
    }

    @Test
    void theEntrySpanTheForwardTheOwnersSpanAndTheOriginFetchAreOneTrace() {
        assertThat(tracing).as("built with tracing on").isNotSameAs(Tracing.OFF);
        String key = cluster.keyWhere(Set.of(), s -> is(s.owner(), owner.member()));
        given().header("traceparent", CLIENT_PARENT).get("/cache/" + key).then().statusCode(200)
                .header(CacheAnswers.SERVED_BY, owner.address()).header(CacheAnswers.CACHE, "MISS");

        // wait for the spans asserted below, not for a count: the entry's HTTP server span ends last, once the
        // answer is written, and over http the forward adds the client's and the owner's HTTP spans (7 in all;
        // a count of 5 once came before the entry's span)
        List<SpanData> trace = spansOf(CLIENT_TRACE, t -> has(t, "ketama route", 1) && has(t, "ketama forward", 1)
                && has(t, "ketama serve", 1) && has(t, "ketama origin fetch", 1)
                && t.stream().anyMatch(s -> s.getParentSpanId().equals(CLIENT_SPAN)));
        SpanData route = one(trace, "ketama route");
        SpanData forward = one(trace, "ketama forward");
        SpanData serve = one(trace, "ketama serve");
        SpanData fetch = one(trace, "ketama origin fetch");
        SpanData http = trace.stream().filter(s -> s.getKind() == SpanKind.SERVER && !s.getName().startsWith("ketama"))
                .findFirst().orElseThrow(() -> new AssertionError("no HTTP server span in " + names(trace)));
        assertThat(http.getParentSpanId()).as("the client's span").isEqualTo(CLIENT_SPAN);
        assertThat(route.getParentSpanId()).isEqualTo(http.getSpanId());
        assertThat(forward.getParentSpanId()).isEqualTo(route.getSpanId());
        assertThat(forward.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(ancestors(serve, trace)).as("the forward's context, read from what the transport carried")
                .contains(forward.getSpanId());
        assertThat(serve.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(fetch.getParentSpanId()).isEqualTo(serve.getSpanId());
        assertThat(fetch.getKind()).isEqualTo(SpanKind.CLIENT);

        assertThat(route.getAttributes().get(RING)).isIn("v1", "v2");
        assertThat(route.getAttributes().get(OWNER)).isEqualTo(owner.address());
        assertThat(route.getAttributes().get(CACHE)).isEqualTo("MISS");
        assertThat(route.getAttributes().get(FAILOVER)).isEqualTo(0L);
        assertThat(forward.getAttributes().get(AttributeKey.stringKey("ketama.member"))).isEqualTo(owner.address());
        assertThat(forward.getAttributes().get(AttributeKey.stringKey("ketama.transport"))).isEqualTo(transport());
        assertThat(serve.getAttributes().get(CACHE)).isEqualTo("MISS");

        spans.reset();
        given().header("traceparent", CLIENT_PARENT).get("/cache/" + key).then().statusCode(200)
                .header(CacheAnswers.CACHE, "HIT");
        List<SpanData> again = spansOf(CLIENT_TRACE, t -> has(t, "ketama route", 1) && has(t, "ketama serve", 1));
        assertThat(one(again, "ketama route").getAttributes().get(CACHE)).isEqualTo("HIT");
        assertThat(one(again, "ketama serve").getAttributes().get(CACHE)).isEqualTo("HIT");
        assertThat(names(again)).as("a hit fetches nothing").doesNotContain("ketama origin fetch");
    }

    @Test
    void aFailoverIsOnTheEntrySpanAndEachForwardIsASpanOfItsOwn() {
        String key = cluster.keyWhere(Set.of(), s -> is(s.owner(), other.member()) && s.candidates().size() > 1
                && is(s.candidates().get(1), owner.member()));
        other.stopServing();
        try {
            given().header("traceparent", CLIENT_PARENT).get("/cache/" + key).then().statusCode(200)
                    .header(CacheAnswers.SERVED_BY, owner.address());
        } finally {
            other.resumeServing();
        }
        List<SpanData> trace = spansOf(CLIENT_TRACE, t -> has(t, "ketama route", 1) && has(t, "ketama forward", 2)
                && has(t, "ketama serve", 2));
        SpanData route = one(trace, "ketama route");
        assertThat(route.getAttributes().get(OWNER)).isEqualTo(other.address());
        assertThat(route.getAttributes().get(FAILOVER)).isEqualTo(1L);
        List<SpanData> forwards = trace.stream().filter(s -> s.getName().equals("ketama forward")).toList();
        assertThat(forwards).hasSize(2).allMatch(f -> f.getParentSpanId().equals(route.getSpanId()));
        SpanData failed = forwards.stream().filter(f -> f.getStatus().getStatusCode() == StatusCode.ERROR).findFirst()
                .orElseThrow(() -> new AssertionError("no failed forward in " + forwards));
        assertThat(failed.getAttributes().get(AttributeKey.stringKey("ketama.member"))).isEqualTo(other.address());
        assertThat(failed.getAttributes().get(AttributeKey.longKey("ketama.attempt"))).isEqualTo(0L);
        SpanData served = forwards.stream().filter(f -> f != failed).findFirst().orElseThrow();
        assertThat(served.getAttributes().get(AttributeKey.longKey("ketama.attempt"))).isEqualTo(1L);
        List<SpanData> serves = trace.stream().filter(s -> s.getName().equals("ketama serve")).toList();
        assertThat(serves).as("the member that refused has its span too, failed").hasSize(2);
        assertThat(serves).filteredOn(s -> ancestors(s, trace).contains(served.getSpanId()))
                .singleElement().satisfies(s -> assertThat(s.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR));
        assertThat(serves).filteredOn(s -> ancestors(s, trace).contains(failed.getSpanId()))
                .singleElement().satisfies(s -> assertThat(s.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR));
    }

    /**
     * The span ids above {@code span} in {@code trace}, nearest first: the owner's span is the forward's
     * child, or (http, where Quarkus also traces the Vert.x HTTP client) its grandchild.
     */
    private static List<String> ancestors(SpanData span, List<SpanData> trace) {
        Map<String, SpanData> byId = trace.stream().collect(Collectors.toMap(SpanData::getSpanId, s -> s));
        List<String> up = new java.util.ArrayList<>();
        for (SpanData at = byId.get(span.getParentSpanId()); at != null; at = byId.get(at.getParentSpanId())) {
            up.add(at.getSpanId());
        }
        if (up.isEmpty() || !up.get(0).equals(span.getParentSpanId())) {
            up.add(0, span.getParentSpanId());
        }
        return up;
    }

    /** The spans of trace {@code traceId}, once those exported make {@code complete} true. */
    private List<SpanData> spansOf(String traceId, java.util.function.Predicate<List<SpanData>> complete) {
        Await.until(() -> complete.test(spans.getFinishedSpanItems().stream().filter(s -> s.getTraceId().equals(traceId)).toList()),
                Duration.ofSeconds(10), () -> "spans of the trace: " + names(spans.getFinishedSpanItems()));
        return spans.getFinishedSpanItems().stream().filter(s -> s.getTraceId().equals(traceId)).toList();
    }

    /** Whether {@code trace} holds at least {@code count} spans named {@code name}. */
    private static boolean has(List<SpanData> trace, String name, int count) {
        return trace.stream().filter(s -> s.getName().equals(name)).count() >= count;
    }

    private static SpanData one(List<SpanData> trace, String name) {
        List<SpanData> named = trace.stream().filter(s -> s.getName().equals(name)).toList();
        assertThat(named).as("spans named %s in %s", name, names(trace)).hasSize(1);
        return named.get(0);
    }

    private static String names(List<SpanData> spans) {
        return spans.stream().map(s -> s.getName() + "@" + s.getTraceId().substring(0, 6)).collect(Collectors.joining(", "));
    }
}
