package io.ketama.quarkus.runtime;

import io.ketama.quarkus.MigrationConflictException;
import io.ketama.quarkus.MigrationQuorumException;
import io.ketama.quarkus.MigrationState;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code GET/PUT/DELETE /q/ketama/ramp} on the management interface: a scheduled ramp of the v2
 * share with a brake ({@link MigrationRamp}), driven by the member that receives the PUT.
 *
 * <ul>
 *   <li>{@code GET}: 200 with the last ramp's {@code phase} ({@code none} when none was started),
 *       plan, progress, last event and this member's step/hold/rollback counts.</li>
 *   <li>{@code PUT} (token as for the migration): a JSON plan {@code {"steps":[1,10,50,100],
 *       "intervalSeconds":300, "maxPredictedMissPercent":2, "maxForwardErrorPercent":1,
 *       "rollback":true, "minSamples":100}} (only {@code steps} and {@code intervalSeconds} required)
 *       starts it: the first step is taken at once. 409 while another ramp runs here, 412 when the
 *       cluster's migration state is not at the generation {@code If-Match} names, or without one
 *       not the one this member applies (changed elsewhere and not yet applied here, or changed
 *       under the first step): nothing starts, 400 for a bad plan.</li>
 *   <li>{@code DELETE} (token): stops the running ramp where it is; 409 when none runs here, 412 when
 *       the cluster's migration state is not at the generation {@code If-Match} names: the ramp runs on.</li>
 * </ul>
 *
 * {@code If-Match} is the migration's ({@link IfMatch}: {@code "N"}, {@code *}, or none for no
 * condition), and every 200 carries the generation of the migration state this member applies as
 * its {@code ETag}, as {@code /q/ketama/migration}'s answers do: one read of either gives the value
 * a guarded ramp call takes. The ramp's own steps move the generation on too.
 */
final class RampAdminHandler implements Handler<RoutingContext> {

    private static final Logger LOG = Logger.getLogger(RampAdminHandler.class);
    static final Set<String> FIELDS = Set.of("steps", "intervalSeconds", "maxPredictedMissPercent", "maxForwardErrorPercent",
            "rollback", "minSamples");
    static final String ALLOWED = "a JSON object: steps (rising v2 shares in (0, 100], at most " + RampPlan.MAX_STEPS
            + "), intervalSeconds (>= 1), and optionally maxPredictedMissPercent and maxForwardErrorPercent (0 to 100), "
            + "rollback (true or false, needs maxForwardErrorPercent), minSamples (>= 1, default " + RampPlan.DEFAULT_MIN_SAMPLES + ")";

    private final Supplier<MigrationRamp> ramp;
    private final Supplier<Optional<String>> token;

    /** @param ramp this member's ramp, looked up at each request */
    RampAdminHandler(Supplier<MigrationRamp> ramp, Supplier<Optional<String>> token) {
        this.ramp = ramp;
        this.token = token;
    }

    @Override
    public void handle(RoutingContext rc) {
        HttpMethod method = rc.request().method();
        if (HttpMethod.GET.equals(method)) {
            // the ramp's lock may be held across a remote compare-and-set: read it off the event loop
            rc.vertx().executeBlocking(() -> view(ramp()), false)
                    .onSuccess(view -> AdminHttp.json(rc, 200, view, etag()))
                    .onFailure(rc::fail);
        } else if (HttpMethod.PUT.equals(method)) {
            if (AdminHttp.authorized(rc, token.get(), "PUT ramp")) {
                IfMatch.read(rc, ifMatch -> AdminHttp.body(rc, body -> start(rc, body, ifMatch)));
            }
        } else if (HttpMethod.DELETE.equals(method)) {
            if (AdminHttp.authorized(rc, token.get(), "DELETE ramp")) {
                IfMatch.read(rc, ifMatch -> cancel(rc, ifMatch));
            }
        } else {
            AdminHttp.methodNotAllowed(rc, "GET, PUT, DELETE");
        }
    }

    private MigrationRamp ramp() {
        return ramp.get();
    }

    /** The answer's ETag: the migration generation this member applies (a volatile read, fine on the event loop). */
    private String etag() {
        return Long.toString(ramp().generation());
    }

    /** How the log says a call was conditional. */
    private static String condition(long ifMatch) {
        return ifMatch == ClusterMigration.ANY_GENERATION ? "" : " (If-Match \"" + ifMatch + "\")";
    }

    private void start(RoutingContext rc, String body, long ifMatch) {
        RampPlan plan;
        try {
            plan = parse(body);
        } catch (IllegalArgumentException e) {
            AdminHttp.refused(rc, 400, "invalid-ramp", "Invalid ramp", e.getMessage() + "; expected " + ALLOWED);
            return;
        }
        String caller = AdminHttp.caller(rc.request());
        rc.vertx().executeBlocking(() -> {
            ramp().start(plan, ifMatch, MigrationState.BY_ADMIN + caller);
            return view(ramp());
        }, false).onComplete(done -> {
            if (done.succeeded()) {
                LOG.infof("ketama admin: %s started a ramp: %s%s", caller, plan, condition(ifMatch));
                AdminHttp.json(rc, 200, done.result(), etag());
            } else if (done.cause() instanceof MigrationConflictException conflict) {
                AdminHttp.problem(rc, 412, "generation-conflict", "Generation conflict", ifMatch == ClusterMigration.ANY_GENERATION
                        ? conflictDetail(conflict)
                        : ifMatchConflictDetail(conflict, "no ramp was started and nothing was changed. Check the state with "
                                + "GET /q/ketama/migration, then PUT the ramp again with its ETag if it still fits"));
            } else if (done.cause() instanceof MigrationQuorumException quorum) {
                AdminHttp.quorum(rc, quorum); // the first step: no ramp was started
            } else if (done.cause() instanceof IllegalStateException running) {
                AdminHttp.refused(rc, 409, "ramp-running", "A ramp is running", running.getMessage());
            } else {
                rc.fail(done.cause());
            }
        });
    }

    /** What changed, and what to do: the ramp would have started from a state that is no longer the cluster's. */
    static String conflictDetail(MigrationConflictException conflict) {
        MigrationState now = conflict.current();
        return "the cluster's migration state is at generation " + now.generation() + " (" + now.settings() + ", changed by "
                + now.changedBy() + " at " + now.changedAt() + ") while this member applied generation " + conflict.expectedGeneration()
                + ": the change had not reached this member yet, or it came while the first step was made; no ramp was started and "
                + "nothing was changed. Check the state with GET /q/ketama/migration, then PUT the ramp again if it still fits";
    }

    /** What changed since the caller's read (the generation If-Match named), what was not done, and what to do. */
    static String ifMatchConflictDetail(MigrationConflictException conflict, String outcome) {
        MigrationState now = conflict.current();
        return "the cluster's migration state is at generation " + now.generation() + " (" + now.settings() + ", changed by "
                + now.changedBy() + " at " + now.changedAt() + "), not " + conflict.expectedGeneration() + " as If-Match expected: "
                + "it changed after it was read; " + outcome;
    }

    private void cancel(RoutingContext rc, long ifMatch) {
        String caller = AdminHttp.caller(rc.request());
        rc.vertx().executeBlocking(() -> {
            ramp().cancel(ifMatch, MigrationState.BY_ADMIN + caller);
            return view(ramp());
        }, false).onComplete(done -> {
            if (done.succeeded()) {
                LOG.infof("ketama admin: %s cancelled the ramp%s", caller, condition(ifMatch));
                AdminHttp.json(rc, 200, done.result(), etag());
            } else if (done.cause() instanceof MigrationConflictException conflict) {
                AdminHttp.problem(rc, 412, "generation-conflict", "Generation conflict", ifMatchConflictDetail(conflict,
                        "the ramp was not stopped and nothing was changed. Check the state with GET /q/ketama/migration, then "
                                + "DELETE again with its ETag, or with If-Match: * to stop the ramp whatever the state"));
            } else if (done.cause() instanceof IllegalStateException none) {
                AdminHttp.refused(rc, 409, "no-ramp", "No ramp is running", none.getMessage());
            } else {
                rc.fail(done.cause());
            }
        });
    }

    static RampPlan parse(String body) {
        Object value;
        try {
            value = body == null || body.isBlank() ? null : Json.decodeValue(body);
        } catch (DecodeException e) {
            throw new IllegalArgumentException("the body is not JSON");
        }
        if (!(value instanceof JsonObject object)) {
            throw new IllegalArgumentException("the body is not a JSON object");
        }
        for (String name : object.fieldNames()) {
            if (!FIELDS.contains(name)) {
                throw new IllegalArgumentException("unknown field \"" + (name.length() > 40 ? name.substring(0, 40) : name) + "\"");
            }
        }
        Map<String, Object> map = object.getMap();
        if (!(map.get("steps") instanceof List<?> rawSteps)) {
            throw new IllegalArgumentException("steps must be a list of numbers");
        }
        List<Double> steps = new ArrayList<>();
        for (Object s : rawSteps) {
            if (!(s instanceof Number n)) {
                throw new IllegalArgumentException("steps must be a list of numbers, has " + Json.encode(s));
            }
            steps.add(n.doubleValue());
        }
        if (!(map.get("intervalSeconds") instanceof Number interval) || interval.doubleValue() != Math.rint(interval.doubleValue())) {
            throw new IllegalArgumentException("intervalSeconds must be a whole number of seconds");
        }
        Double miss = optionalNumber(map, "maxPredictedMissPercent");
        Double errors = optionalNumber(map, "maxForwardErrorPercent");
        Object rollback = map.getOrDefault("rollback", false);
        if (!(rollback instanceof Boolean rollbackFlag)) {
            throw new IllegalArgumentException("rollback must be true or false");
        }
        Object minSamples = map.getOrDefault("minSamples", RampPlan.DEFAULT_MIN_SAMPLES);
        if (!(minSamples instanceof Number m) || m.doubleValue() != Math.rint(m.doubleValue())) {
            throw new IllegalArgumentException("minSamples must be a whole number");
        }
        return new RampPlan(steps, Duration.ofSeconds(interval.longValue()), miss, errors, rollbackFlag, m.longValue());
    }

    private static Double optionalNumber(Map<String, Object> map, String name) {
        Object v = map.get(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof Number n)) {
            throw new IllegalArgumentException(name + " must be a number");
        }
        return n.doubleValue();
    }

    static JsonObject view(MigrationRamp ramp) {
        MigrationRamp.Status status = ramp.status();
        JsonObject counts = new JsonObject().put("steps", ramp.steps()).put("holds", ramp.holds()).put("rollbacks", ramp.rollbacks());
        if (status == null) {
            return new JsonObject().put("phase", "none").put("counts", counts);
        }
        RampPlan plan = status.plan();
        JsonObject p = new JsonObject()
                .put("steps", new JsonArray(plan.steps()))
                .put("intervalSeconds", plan.interval().toSeconds())
                .put("maxPredictedMissPercent", plan.maxPredictedMissPercent())
                .put("maxForwardErrorPercent", plan.maxForwardErrorPercent())
                .put("rollback", plan.rollback())
                .put("minSamples", plan.minSamples());
        return new JsonObject()
                .put("phase", status.phase().label())
                .put("plan", p)
                .put("stepsTaken", status.stepsTaken())
                .put("event", status.event())
                .put("nextStepAt", status.nextStepAt() == null ? null : status.nextStepAt().toString())
                .put("counts", counts);
    }
}
