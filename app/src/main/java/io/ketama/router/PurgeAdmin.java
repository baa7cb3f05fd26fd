package io.ketama.router;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ketama.quarkus.AdminToken;
import io.ketama.router.purge.ClusterPurge;
import io.ketama.router.purge.MemberPurge;
import io.ketama.router.purge.PurgeCommand;
import io.ketama.router.purge.PurgeOutcome;
import io.ketama.router.serving.PurgeMarks;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

/**
 * Purges, as operators and tools ask for them: {@code POST /q/ketama/purge} on the management
 * interface with {@code {"keys": [...], "tags": [...]}}, and the method {@code PURGE <path>} on the
 * HTTP port (the keys of that target under both mounts, as an unsafe method invalidates them). Both
 * need the admin plane's token ({@code Authorization: Bearer <quarkus.ketama.admin.token>}): without
 * one configured the plane is read-only (403), a missing or wrong token is refused (401), and a
 * refused call drops nothing. A purge answers {@code 200} when every member confirmed, {@code 202}
 * naming the members that did not ({@link ClusterPurge} says what then keeps them from serving a
 * purged answer). Every call is logged with its caller, what it named and who confirmed. The work
 * runs off the event loop: a purge never holds up a request.
 */
@Singleton
class PurgeAdmin {

    private static final Logger LOG = Logger.getLogger(PurgeAdmin.class);
    static final String PATH = "/q/ketama/purge";
    static final HttpMethod PURGE = HttpMethod.valueOf("PURGE");
    private static final String PROBLEM = "application/problem+json";

    private final ClusterPurge purge;
    private final ObjectMapper json;
    private final RequestReader reader;
    private final Optional<String> token;

    PurgeAdmin(ClusterPurge purge, ObjectMapper json, RequestReader reader, MeterRegistry registry) {
        this.purge = purge;
        this.json = json;
        this.reader = reader;
        this.token = ConfigProvider.getConfig().getOptionalValue("quarkus.ketama.admin.token", String.class)
                .filter(t -> !t.isBlank());
        MemberPurge local = purge.local();
        PurgeMarks marks = purge.marks();
        FunctionCounter.builder("ketama.router.purges", purge, ClusterPurge::purges)
                .description("purges started on this member (admin calls, PURGE, unsafe methods)").register(registry);
        FunctionCounter.builder("ketama.router.purges.not.confirmed", purge, ClusterPurge::notConfirmed)
                .description("purges started here that some member did not confirm in time").register(registry);
        FunctionCounter.builder("ketama.router.purge.applied", local, MemberPurge::applied)
                .description("purges applied on this member, its own and other members'").register(registry);
        FunctionCounter.builder("ketama.router.purge.dropped", local, MemberPurge::dropped)
                .description("stored answers and near copies purges dropped on this member").register(registry);
        FunctionCounter.builder("ketama.router.purge.fences", marks, PurgeMarks::fences)
                .description("times this member dropped everything it held because it may have missed a purge").register(registry);
        Gauge.builder("ketama.router.purge.pending.members", purge, ClusterPurge::pendingMembers)
                .description("members a purge is being sent to again").register(registry);
        Gauge.builder("ketama.router.purge.missing.members", purge, p -> p.missing().size())
                .description("members cut off by failure that purges name as not confirmed").register(registry);
    }

    void mount(@Observes ManagementInterface management) {
        management.router().route(PATH).handler(this::admin);
    }

    /** Ahead of the proxy: a {@code PURGE} is this cache's own, never the origin's. */
    void register(@Observes Router router) {
        router.route().method(PURGE).order(CacheAdmission.ORDER - 1).handler(this::purgeMethod);
    }

    private void admin(RoutingContext rc) {
        if (rc.request().method() != HttpMethod.POST) {
            rc.response().putHeader(HttpHeaders.ALLOW, "POST");
            problem(rc, 405, "method-not-allowed", "Method not allowed", rc.request().method() + " is not allowed here; use POST");
            return;
        }
        if (!authorized(rc, "purge")) {
            return;
        }
        String length = rc.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null && parseLong(length) > PurgeCommand.MAX_BODY_BYTES) {
            refused(rc, 413, "too-large", "Body too large", "a purge's body may have at most " + PurgeCommand.MAX_BODY_BYTES + " bytes");
            return;
        }
        if (rc.body() != null && rc.body().available()) {
            take(rc, rc.body().buffer() == null ? Buffer.buffer() : rc.body().buffer());
        } else {
            rc.request().body().onSuccess(b -> take(rc, b)).onFailure(rc::fail);
        }
    }

    private void take(RoutingContext rc, Buffer body) {
        if (body.length() > PurgeCommand.MAX_BODY_BYTES) {
            refused(rc, 413, "too-large", "Body too large", "a purge's body may have at most " + PurgeCommand.MAX_BODY_BYTES + " bytes");
            return;
        }
        PurgeCommand command;
        try {
            command = PurgeCommand.parse(json, body.toString(StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            refused(rc, 400, "bad-purge", "Bad purge", e.getMessage());
            return;
        }
        run(rc, command);
    }

    private void purgeMethod(RoutingContext rc) {
        HttpServerRequest request = rc.request();
        if (!authorized(rc, "PURGE " + request.path())) {
            return;
        }
        String path = request.path();
        Mount mount = path.startsWith(Mount.CACHE_PREFIX) ? Mount.CACHE : Mount.ROOT;
        if (mount == Mount.ROOT && !Mount.proxied(path)) {
            refused(rc, 400, "bad-purge", "Bad purge", "'" + path + "' is the service's own path, not a cached one");
            return;
        }
        List<String> keys;
        try {
            ProxiedRequest proxied = reader.read(request, mount);
            keys = reader.keysOf(proxied.target(), proxied);
        } catch (RuntimeException e) {
            refused(rc, 400, "bad-purge", "Bad purge", "the target cannot be read as a key: " + e.getMessage());
            return;
        }
        run(rc, PurgeCommand.ofKeys(keys));
    }

    private void run(RoutingContext rc, PurgeCommand command) {
        String caller = caller(rc.request());
        CompletableFuture.supplyAsync(() -> purge.purge(command), java.util.concurrent.ForkJoinPool.commonPool())
                .thenCompose(f -> f)
                .whenComplete((outcome, failure) -> rc.vertx().runOnContext(v -> {
                    if (failure != null) {
                        LOG.error("purge failed unexpectedly", failure);
                        problem(rc, 500, "internal", "Internal error", "the purge failed: " + failure);
                        return;
                    }
                    LOG.infof("ketama purge from %s: %d keys %s, %d tags %s; %d answers dropped; confirmed by %s%s (%d ms)", caller,
                            command.keys().size(), sample(command.keys()), command.tags().size(), sample(new ArrayList<>(command.tags())),
                            outcome.dropped(), outcome.confirmed(),
                            outcome.complete() ? "" : "; NOT confirmed by " + outcome.notConfirmed().keySet(), outcome.millis());
                    write(rc, outcome);
                }));
    }

    private void write(RoutingContext rc, PurgeOutcome outcome) {
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("purged", outcome.complete());
        page.put("keys", outcome.keys());
        page.put("tags", outcome.tags());
        page.put("dropped", outcome.dropped());
        page.put("confirmed", outcome.confirmed());
        page.put("notConfirmed", outcome.notConfirmed());
        page.put("millis", outcome.millis());
        byte[] body;
        try {
            body = json.writeValueAsBytes(page);
        } catch (JsonProcessingException e) {
            problem(rc, 500, "internal", "Internal error", "the purge's answer cannot be written");
            return;
        }
        rc.response().setStatusCode(outcome.complete() ? 200 : 202)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                .end(Buffer.buffer(body));
    }

    /** At most ten, for the log. */
    private static String sample(List<String> items) {
        return items.size() <= 10 ? items.toString() : items.subList(0, 10) + " and " + (items.size() - 10) + " more";
    }

    /** As the admin plane's other changes: 403 without a token configured, 401 without the right one; logged. */
    private boolean authorized(RoutingContext rc, String what) {
        String caller = caller(rc.request());
        if (token.isEmpty()) {
            LOG.warnf("ketama purge: %s from %s refused: no admin token is configured, the admin plane is read-only", what, caller);
            problem(rc, 403, "read-only", "Read-only", "no admin token is configured (quarkus.ketama.admin.token): purges are refused");
            return false;
        }
        if (!AdminToken.matches(rc.request().getHeader(HttpHeaders.AUTHORIZATION), token.get())) {
            LOG.warnf("ketama purge: %s from %s refused: %s bearer token", what, caller,
                    rc.request().getHeader(HttpHeaders.AUTHORIZATION) == null ? "no" : "a wrong");
            rc.response().putHeader("WWW-Authenticate", "Bearer realm=\"ketama-admin\"");
            problem(rc, 401, "unauthorized", "Unauthorized", "a valid 'Authorization: Bearer <token>' header is required");
            return false;
        }
        return true;
    }

    private static String caller(HttpServerRequest request) {
        return request.remoteAddress() == null ? "unknown" : request.remoteAddress().toString();
    }

    private static long parseLong(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private void refused(RoutingContext rc, int status, String type, String title, String detail) {
        LOG.infof("ketama purge: %s %s from %s refused (%d %s): %s", rc.request().method(), rc.request().path(), caller(rc.request()),
                status, type, detail);
        problem(rc, status, type, title, detail);
    }

    private static void problem(RoutingContext rc, int status, String type, String title, String detail) {
        rc.response().setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, PROBLEM)
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                .end(new io.vertx.core.json.JsonObject()
                        .put("type", "urn:ketama:problem:" + type)
                        .put("title", title)
                        .put("status", status)
                        .put("detail", detail)
                        .put("instance", rc.request().path())
                        .encode());
    }
}
