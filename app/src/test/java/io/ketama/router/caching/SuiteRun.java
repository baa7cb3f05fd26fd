package io.ketama.router.caching;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one test of the HTTP caching test suite against {@link CachePolicy} at policy level: the
 * suite's client (which always sends {@code Pragma: foo} and {@code Cache-Control: nothing-to-see-here}
 * and numbers its requests), the suite's origin server (which answers each request with the config
 * of the request number it carries, answers 304 where a validation is expected and the validator
 * matches, and otherwise 999, and adds {@code Date} and its connection fields as Node does), and
 * between them the smallest serving path that follows the policy. Time is a counter: a request takes
 * 20 ms to the origin and back, 5 ms pass between requests, a pause is 3 s. No thread sleeps.
 *
 * <p>The checks are the suite's: a response is "cached" when its {@code Server-Request-Count} is
 * below the request's number, "not cached" when equal; "validated" when the origin saw the
 * conditional field during that request; then status, headers, body and the origin's saved header
 * fields on responses that came from the origin.
 */
final class SuiteRun {

    /** 2026-03-01T12:00:00.300Z: a time not on a whole second, as dates are (their ms are dropped). */
    static final long T0 = 1_772_366_400_300L;
    static final String UUID = "5c1d8f2e-7a44-4b1e-9a0b-2f6e1c3d4b5a";

    /** What the client got; {@code originReqNum}: the request number whose config the origin answered with, when it came from the origin now, else 0. */
    record Served(int status, HttpFields headers, String body, int originReqNum) {
    }

    record OriginSaw(int reqNum, String method, HttpFields fields) {
    }

    record Entry(OriginAnswer answer, String[] selectors) {
    }

    private final CachePolicy policy;
    private final SuiteStep[] steps;
    private final Map<String, List<Entry>> store = new HashMap<>();
    /** What each config's response header lines were once sent (dates resolved), by request number. */
    private final Map<Integer, HttpFields> sent = new HashMap<>();
    final List<OriginSaw> originSaw = new ArrayList<>();
    final List<Served> served = new ArrayList<>();
    long now = T0;
    private int serverCount;
    private long lastServerNow = T0;

    private SuiteRun(CachePolicy policy, SuiteStep... steps) {
        this.policy = policy;
        this.steps = steps;
    }

    /** Runs the steps in order, checking each as the suite does; returns the run for further looks. */
    static SuiteRun run(CachePolicy policy, SuiteStep... steps) {
        SuiteRun run = new SuiteRun(policy, steps);
        for (int i = 0; i < steps.length; i++) {
            run.request(i + 1);
        }
        return run;
    }

    /** The stored answers of the test's URL (with {@code query}). */
    List<Entry> stored(String query) {
        return store.getOrDefault(query, List.of());
    }

    // ---- the client ------------------------------------------------------------------------------

    private void request(int reqNum) {
        SuiteStep step = steps[reqNum - 1];
        HttpFields.Builder fields = HttpFields.builder();
        fields.add("Pragma", "foo").add("Cache-Control", "nothing-to-see-here");
        for (SuiteStep.Line line : step.requestHeaders) {
            // magic_ims: a relative date is taken from the previous response's Server-Now
            fields.add(line.name(), line.value() instanceof Integer s ? HttpDates.format(lastServerNow + s * 1000L) : (String) line.value());
        }
        fields.add("Test-ID", "suite").add("Req-Num", Integer.toString(reqNum));
        int sawBefore = originSaw.size();
        Served response = handle(new CacheRequest(step.method, fields.build()), step.query);
        served.add(response);
        String serverNow = response.headers().first("Server-Now");
        if (serverNow != null) {
            lastServerNow = Long.parseLong(serverNow);
        }
        check(reqNum, step, response, originSaw.subList(sawBefore, originSaw.size()));
        now += step.pauseAfter ? 3000 : 5;
    }

    private void check(int reqNum, SuiteStep step, Served response, List<OriginSaw> sawNow) {
        String what = "request " + reqNum + " served " + response;
        String count = response.headers().first("Server-Request-Count");
        if (step.expectedType == SuiteStep.Type.CACHED) {
            boolean cached = count == null ? response.status() == 304 : Integer.parseInt(count) < reqNum;
            assertThat(cached).as(what + ": cached").isTrue();
        } else if (step.expectedType == SuiteStep.Type.NOT_CACHED) {
            assertThat(count).as(what + ": not cached").isEqualTo(Integer.toString(reqNum));
        } else if (step.expectedType != null) {
            String conditional = step.expectedType == SuiteStep.Type.ETAG_VALIDATED ? "If-None-Match" : "If-Modified-Since";
            assertThat(sawNow).as(what + ": validated with " + conditional).anyMatch(s -> s.fields().has(conditional));
        }
        if (step.expectStatusSet) {
            if (step.expectedStatus != null) {
                assertThat(response.status()).as(what + ": status").isEqualTo(step.expectedStatus);
            }
        } else {
            assertThat(response.status()).as(what + ": status").isEqualTo(step.status != null ? step.status : 200);
        }
        for (Object[] expected : step.expectedResponseHeaders) {
            String name = (String) expected[0];
            assertThat(response.headers().has(name)).as(what + ": has " + name).isTrue();
            String value = String.join(", ", response.headers().all(name));
            if (expected.length == 3) {
                assertThat(Long.parseLong(value)).as(what + ": " + name).isGreaterThan(((Integer) expected[2]).longValue());
            } else if (expected.length == 2) {
                Object v = expected[1];
                String want = v instanceof Integer s ? HttpDates.format(Long.parseLong(response.headers().first("Server-Now")) + s * 1000L)
                        : (String) v;
                assertThat(value).as(what + ": " + name).isEqualTo(want);
            }
        }
        for (Object[] missing : step.missingResponseHeaders) {
            String name = (String) missing[0];
            if (missing.length == 1) {
                assertThat(response.headers().has(name)).as(what + ": lacks " + name).isFalse();
            } else {
                assertThat(response.headers().all(name)).as(what + ": lacks " + name + ": " + missing[1]).doesNotContain((String) missing[1]);
            }
        }
        for (SuiteStep.Line line : step.expectedRequestHeaders) {
            assertThat(sawNow).as(what + ": the origin saw a request").isNotEmpty();
            assertThat(sawNow.get(sawNow.size() - 1).fields().first(line.name())).as(what + ": sent " + line.name())
                    .isEqualTo(line.value());
        }
        if (step.checkBody && step.expectedType != null) {
            if (step.expectedText != null) {
                assertThat(response.body()).as(what + ": body").isEqualTo(step.expectedText);
            } else if (step.body != null) {
                assertThat(response.body()).as(what + ": body").isEqualTo(step.body);
            } else if (response.status() != 204 && response.status() != 304 && !step.method.equals("HEAD")) {
                assertThat(response.body()).as(what + ": body").isEqualTo(UUID);
            }
        }
        if (response.originReqNum() > 0 && response.status() != 304 && step.expectedType != SuiteStep.Type.CACHED) {
            // the suite compares the lines the origin sent (and saved) with what the client received
            HttpFields sentNow = sent.get(response.originReqNum());
            SuiteStep config = steps[response.originReqNum() - 1];
            for (SuiteStep.Line line : config.responseHeaders) {
                if (line.saved() && !line.name().equalsIgnoreCase("Date")) {
                    assertThat(String.join(", ", response.headers().all(line.name()))).as(what + ": passes " + line.name())
                            .isEqualTo(String.join(", ", sentNow.all(line.name())));
                }
            }
        }
    }

    // ---- the origin server -----------------------------------------------------------------------

    /** The suite's server: null when the config says to close the connection. */
    private OriginAnswer origin(String method, HttpFields fields, long requestTime) {
        int reqNum = Integer.parseInt(fields.first("Req-Num"));
        originSaw.add(new OriginSaw(reqNum, method, fields));
        SuiteStep config = steps[reqNum - 1];
        long serverNow = requestTime + 10;
        int srvNum = ++serverCount;
        int status = config.status != null ? config.status : 200;
        if (config.expectedType == SuiteStep.Type.ETAG_VALIDATED || config.expectedType == SuiteStep.Type.LM_VALIDATED) {
            HttpFields previous = sent.containsKey(reqNum - 1) ? sent.get(reqNum - 1) : unsent(steps[reqNum - 2]);
            String lm = previous.first("Last-Modified");
            String etag = previous.first("ETag");
            boolean match = lm != null && lm.equals(fields.first("If-Modified-Since"))
                    || etag != null && etag.equals(fields.first("If-None-Match"));
            status = match ? 304 : 999;
        }
        HttpFields.Builder out = HttpFields.builder();
        out.add("Server-Base-Url", "/test/" + UUID + "?" + config.query).add("Server-Request-Count", Integer.toString(srvNum))
                .add("Client-Request-Count", Integer.toString(reqNum)).add("Server-Now", Long.toString(serverNow));
        HttpFields.Builder lines = HttpFields.builder();
        for (SuiteStep.Line line : config.responseHeaders) {
            String value = line.value() instanceof Integer s ? HttpDates.format(serverNow + s * 1000L) : (String) line.value();
            lines.add(line.name(), value);
        }
        HttpFields configured = lines.build();
        sent.put(reqNum, configured);
        out.addAll(configured);
        HttpFields partial = out.build();
        HttpFields.Builder node = HttpFields.builder().addAll(partial);
        if (!partial.has("Content-Type")) {
            node.add("Content-Type", "text/plain");
        }
        if (!partial.has("Date")) {
            node.add("Date", HttpDates.format(serverNow)); // Node adds one
        }
        String body = status == 204 || status == 304 ? "" : config.body != null ? config.body : UUID;
        if (!partial.has("Content-Length") && !body.isEmpty()) {
            node.add("Content-Length", Integer.toString(body.length()));
        }
        node.add("Connection", "keep-alive").add("Keep-Alive", "timeout=5");
        if (config.disconnect) {
            return null;
        }
        HttpFields received = node.build().endToEnd(); // what the serving path keeps of a response
        long responseTime = now;
        return new OriginAnswer(status, received, body.getBytes(StandardCharsets.ISO_8859_1), responseTime,
                CachePolicy.initialAgeMillis(received, requestTime, responseTime));
    }

    /** A config's response lines as the suite's server reads them when it never sent them: dates unresolved, so left out. */
    private static HttpFields unsent(SuiteStep config) {
        HttpFields.Builder b = HttpFields.builder();
        for (SuiteStep.Line line : config.responseHeaders) {
            if (line.value() instanceof String value) {
                b.add(line.name(), value);
            }
        }
        return b.build();
    }

    private OriginAnswer fetch(String method, HttpFields fields) {
        long requestTime = now;
        now += 20;
        return origin(method, fields, requestTime);
    }

    // ---- the serving path ------------------------------------------------------------------------

    private Served handle(CacheRequest request, String key) {
        if (!policy.usesCache(request)) {
            OriginAnswer answer = fetch(request.method(), request.headers().endToEnd());
            if (answer != null && CachePolicy.invalidates(request.method(), answer.status())) {
                store.remove(key);
            }
            return answer == null ? gatewayError() : serve(answer, request, true);
        }
        List<Entry> entries = store.computeIfAbsent(key, k -> new ArrayList<>());
        Entry entry = null;
        for (int i = entries.size() - 1; i >= 0 && entry == null; i--) {
            if (policy.matches(entries.get(i).answer(), entries.get(i).selectors(), request)) {
                entry = entries.get(i); // the most recent that matches (RFC 9111 §4.1)
            }
        }
        CachePolicy.Reuse reuse = entry == null ? CachePolicy.Reuse.FETCH : policy.reuse(entry.answer(), request, now);
        if (entry != null && reuse != CachePolicy.Reuse.VALIDATE && reuse != CachePolicy.Reuse.FETCH) {
            Served response = serve(entry.answer(), request, false);
            if (reuse == CachePolicy.Reuse.STALE_WHILE_REVALIDATE) {
                fromOrigin(request, key, entry, entry.answer()); // "in the background": after the client has its answer
            }
            return response;
        }
        if (policy.onlyIfCached(request)) {
            return new Served(504, HttpFields.EMPTY, "", 0);
        }
        OriginAnswer validating = reuse == CachePolicy.Reuse.VALIDATE ? entry.answer() : null;
        OriginAnswer answer = fromOrigin(request, key, entry, validating);
        if (answer != null) {
            return serve(answer, request, true);
        }
        if (entry != null && policy.staleOnError(entry.answer(), request, now)) {
            return serve(entry.answer(), request, false);
        }
        return gatewayError();
    }

    /**
     * Asks the origin (conditionally for {@code validating}), stores or freshens what comes back, and
     * returns the answer to serve: the origin's as received, or the freshened stored one after a 304.
     * Null when the origin failed (no answer, or a 5xx while a stale answer may stand in).
     */
    private OriginAnswer fromOrigin(CacheRequest request, String key, Entry entry, OriginAnswer validating) {
        OriginAnswer answer = fetch(request.method(), policy.originRequest(request, validating));
        if (answer == null) {
            return null;
        }
        int status = answer.status();
        if (status == 500 || status == 502 || status == 503 || status == 504) {
            if (entry != null && policy.staleOnError(entry.answer(), request, now)) {
                return null;
            }
        }
        List<Entry> entries = store.computeIfAbsent(key, k -> new ArrayList<>());
        if (status == 304 && validating != null) {
            OriginAnswer freshened = policy.freshen(validating, answer);
            entries.set(entries.indexOf(entry), new Entry(freshened, entry.selectors()));
            return freshened;
        }
        if (policy.storable(request, answer)) {
            OriginAnswer kept = policy.forStorage(answer);
            entries.removeIf(e -> policy.matches(e.answer(), e.selectors(), request)); // the new one replaces those it stands for
            entries.add(new Entry(kept, policy.selectors(kept, request)));
        }
        return answer;
    }

    /** The answer as the client gets it: preconditions, range and {@code Age} applied. */
    private Served serve(OriginAnswer answer, CacheRequest request, boolean fromOriginNow) {
        int originReqNum = fromOriginNow ? Integer.parseInt(answer.headers().first("Client-Request-Count")) : 0;
        HttpFields fields = answer.headers();
        String body = new String(answer.body(), StandardCharsets.ISO_8859_1);
        int status = CachePolicy.preconditions(request, answer);
        if (status == 304) {
            fields = CachePolicy.notModifiedFields(answer);
            body = "";
        } else if (status == 412) {
            fields = HttpFields.EMPTY;
            body = "";
        } else {
            ByteRange range = CachePolicy.range(request, answer);
            if (range != null && range.isUnsatisfiable()) {
                return new Served(416, HttpFields.of("Content-Range", range.contentRange()), "", originReqNum);
            }
            if (range != null) {
                status = 206;
                fields = fields.replacing("Content-Range", range.contentRange())
                        .replacing("Content-Length", Long.toString(range.length()));
                body = body.substring((int) range.first(), (int) range.last() + 1);
            }
        }
        if (request.method().equals("HEAD")) {
            body = "";
        }
        fields = fields.replacing("Age", CachePolicy.ageValue(answer.ageMillis(now)));
        return new Served(status, fields, body, originReqNum);
    }

    private static Served gatewayError() {
        return new Served(502, HttpFields.EMPTY, "", 0);
    }

    @Override
    public String toString() {
        return "served " + served + ", origin saw " + originSaw + ", stored " + store;
    }
}
