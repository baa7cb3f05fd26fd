package io.ketama.client;

import com.hazelcast.cluster.Member;
import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.MemberInfo;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.Selection;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Sends each request for {@code /cache/{key}} straight to the key's owner, so the members serve it
 * without a member-to-member forward: the owner on this application's rings (a {@link RingSelector}
 * of the client role, which follows the members' list, serving states and migration) is the owner on
 * the members' once a change has reached the client (runtime/README, "Member or client": within
 * {@code ClientFollower.BOUND}). A request a stale ring sends elsewhere is still served: the member
 * that takes it forwards it, as for any client.
 *
 * <h2>Failover, as the members do it</h2>
 * The key's candidates in ring order (the owner, then each further distinct member), at most
 * {@link DirectClientSettings#maxCandidates()}: a candidate that cannot be connected to, does not answer
 * within {@link DirectClientSettings#attemptTimeout()}, or publishes no HTTP port is passed over for the
 * next; a {@code 503} with {@code Retry-After} (the member is at its limits, or not serving yet) holds
 * that member off for that long and goes to the next. A member that failed
 * {@link DirectClientSettings#breakerFailures()} times in a row is held off for
 * {@link DirectClientSettings#breakerOpenFor()} and skipped while held; when every candidate is held off
 * they are tried anyway, in order (an answer closes the breaker). Each later candidate is told which
 * members were passed over ({@link #PASSED_OVER}), so it serves the key from its own candidates without
 * them, as it serves a forward another member failed over to it, instead of forwarding it back to the
 * owner that failed. Any other answer, errors included,
 * is the member's answer and is returned: a {@code 502} says the origin failed, which another member
 * would only ask again. When no candidate answered, the last {@code 503} is returned if there was
 * one, else {@link NoMemberAnsweredException}.
 *
 * <h2>What it carries</h2>
 * The caller's header fields as given (but those the JDK's client sets itself: {@code Host},
 * {@code Connection}, {@code Content-Length}, {@code Expect}, {@code Upgrade}); {@code X-Ketama-Features}
 * also picks the ring the key is placed on, as the members read it. {@code GET} and {@code HEAD}
 * only: other methods pass through any member to the origin and gain nothing here.
 *
 * <p>Thread-safe; one per application. The HTTP client keeps connections to each member open.
 */
public final class DirectClient {

    /** The service's path of cached keys. */
    public static final String CACHE_PREFIX = "/cache/";
    /** The features header: the members' {@code X-Ketama-Features}, comma-separated. */
    public static final String FEATURES = "X-Ketama-Features";
    /**
     * The members (cluster addresses) this client passed over for the key, sent to each later candidate
     * so it serves the key from its own candidates without them rather than forward it back to a failed
     * owner (the service's {@code PassedOver}).
     */
    public static final String PASSED_OVER = "X-Ketama-Passed-Over";
    private static final Set<String> SET_BY_THE_JDK = Set.of("host", "connection", "content-length", "expect", "upgrade",
            PASSED_OVER.toLowerCase(Locale.ROOT));

    private final RingSelector rings;
    private final DirectClientSettings settings;
    private final HttpClient http;
    private final Map<UUID, MemberBreaker> breakers = new ConcurrentHashMap<>();
    /** Each member's endpoint, read once: a member's attributes do not change while it has its UUID. */
    private final Map<UUID, Optional<MemberEndpoint>> endpoints = new ConcurrentHashMap<>();
    /** The rings the two maps were last pruned to: a member that left takes its entries with it. */
    private volatile RingSnapshot prunedTo;
    private final LongAdder answered = new LongAdder();
    private final LongAdder byOwner = new LongAdder();
    private final LongAdder failedOver = new LongAdder();
    private final LongAdder heldOff = new LongAdder();
    private final LongAdder spilled = new LongAdder();
    private final LongAdder unanswered = new LongAdder();

    /** With {@link DirectClientSettings#DEFAULTS}. */
    public DirectClient(RingSelector rings) {
        this(rings, DirectClientSettings.DEFAULTS);
    }

    public DirectClient(RingSelector rings, DirectClientSettings settings) {
        this.rings = Objects.requireNonNull(rings, "rings");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(settings.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** {@code GET /cache/{key}} with no header fields. */
    public DirectAnswer get(String key) {
        return send("GET", key, Map.of());
    }

    /**
     * {@code method /cache/{key}} with {@code headers}, to the key's owner or the next candidate that answers.
     *
     * @param key the raw request target after {@code /cache/}, as the members read it (path and query,
     *            percent-encoded as it is to be sent; never decoded): 1 to 8192 bytes
     * @throws IllegalArgumentException   for another method than GET or HEAD, or a key that is not a request target
     * @throws NoMemberAnsweredException  when no candidate answered (see the class's javadoc)
     * @throws IllegalStateException      when the rings hold no member with the required features
     */
    public DirectAnswer send(String method, String key, Map<String, List<String>> headers) {
        String m = Objects.requireNonNull(method, "method").toUpperCase(Locale.ROOT);
        if (!m.equals("GET") && !m.equals("HEAD")) {
            throw new IllegalArgumentException("the direct client sends GET and HEAD, not " + method
                    + "; other methods pass through any member to the origin");
        }
        String path = CACHE_PREFIX + requireKey(key);
        RingSnapshot snapshot = rings.snapshot();
        if (snapshot != prunedTo) {
            prune(snapshot);
        }
        Selection selection = rings.select(key, features(headers));
        if (!selection.found()) {
            throw new IllegalStateException("no member can serve key " + key + ": the rings are empty or no member has the features "
                    + features(headers));
        }
        List<Member> candidates = selection.candidates();
        int tries = Math.min(settings.maxCandidates(), candidates.size());
        Attempts attempts = new Attempts(tries);
        for (int i = 0; i < tries; i++) {
            Member member = candidates.get(i);
            MemberBreaker breaker = breakers.computeIfAbsent(member.getUuid(), u -> new MemberBreaker());
            if (breaker.heldOff(System.nanoTime())) {
                heldOff.increment();
                attempts.heldOff(i, member);
                continue;
            }
            DirectAnswer answer = attempt(m, path, headers, member, breaker, i == 0, attempts);
            if (answer != null) {
                return answer;
            }
        }
        for (int i : attempts.heldOffIndexes()) { // every other candidate failed: probe the ones held off, in order
            Member member = candidates.get(i);
            attempts.probing();
            DirectAnswer answer = attempt(m, path, headers, member, breakers.computeIfAbsent(member.getUuid(), u -> new MemberBreaker()), i == 0, attempts);
            if (answer != null) {
                return answer;
            }
        }
        if (attempts.busy != null) {
            List<String> others = new ArrayList<>(attempts.sent);
            others.remove(others.lastIndexOf(attempts.busyMember));
            return answered(attempts.busy, attempts.busyMember, false, attempts.passedOver - 1, others);
        }
        unanswered.increment();
        throw new NoMemberAnsweredException(key, attempts.lines, attempts.sent, attempts.last);
    }

    /** One candidate tried: its answer, or null (recorded in {@code attempts}) to go on to the next. */
    private DirectAnswer attempt(String method, String path, Map<String, List<String>> headers, Member member, MemberBreaker breaker,
            boolean owner, Attempts attempts) {
        MemberEndpoint endpoint = endpoints.computeIfAbsent(member.getUuid(), u -> Optional.ofNullable(MemberEndpoint.of(member))).orElse(null);
        if (endpoint == null) {
            attempts.failed(member, member.getAddress() + ": publishes no usable " + MemberEndpoint.HTTP_PORT, null);
            return null;
        }
        try {
            HttpResponse<byte[]> response = http.send(request(method, endpoint.uri(path), headers, attempts.passedOverAddresses(member)),
                    HttpResponse.BodyHandlers.ofByteArray());
            long retryAfter = retryAfterSeconds(response);
            if (response.statusCode() == 503 && retryAfter >= 0) {
                breaker.holdOff(System.nanoTime(), TimeUnit.SECONDS.toNanos(Math.min(retryAfter, settings.maxRetryAfter().toSeconds())));
                failedOver.increment();
                attempts.sent.add(endpoint.toString());
                attempts.busy(member, endpoint + ": 503 with Retry-After " + retryAfter, response, endpoint.toString());
                return null;
            }
            breaker.answered();
            return answered(response, endpoint.toString(), owner, attempts.passedOver, attempts.sent);
        } catch (IOException e) {
            breaker.failed(System.nanoTime(), settings.breakerFailures(), settings.breakerOpenFor().toNanos());
            failedOver.increment();
            attempts.sent.add(endpoint.toString());
            attempts.failed(member, endpoint + ": " + e, e);
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NoMemberAnsweredException(path, List.of(endpoint + ": interrupted"), List.of(endpoint.toString()), e);
        }
    }

    /** What became of one request's candidates so far. */
    private static final class Attempts {
        final List<String> lines;
        final List<Integer> heldOff = new ArrayList<>(0);
        /** Endpoints ({@code host:port}) this request was sent to and that did not answer it, in order. */
        final List<String> sent = new ArrayList<>(0);
        /** Cluster addresses of the members passed over, in the order tried. */
        final List<String> addresses = new ArrayList<>(0);
        /** Candidates passed over: failed, held off, unaddressable or busy. */
        int passedOver;
        HttpResponse<byte[]> busy;
        String busyMember;
        Throwable last;

        Attempts(int tries) {
            lines = new ArrayList<>(tries);
        }

        void heldOff(int index, Member member) {
            heldOff.add(index);
            addresses.add(MemberAddress.of(member));
            passedOver++;
        }

        /** The {@link #PASSED_OVER} value for an attempt at {@code member}: null for none. */
        String passedOverAddresses(Member member) {
            if (addresses.isEmpty()) {
                return null;
            }
            String self = MemberAddress.of(member);
            StringBuilder out = new StringBuilder();
            for (String a : addresses) {
                if (!a.equals(self)) {
                    out.append(out.length() == 0 ? "" : ",").append(a);
                }
            }
            return out.length() == 0 ? null : out.toString();
        }

        /** A held-off candidate is tried after all: no longer passed over unless it fails. */
        void probing() {
            passedOver--;
        }

        List<Integer> heldOffIndexes() {
            return List.copyOf(heldOff);
        }

        void failed(Member member, String line, Throwable cause) {
            lines.add(line);
            addresses.add(MemberAddress.of(member));
            passedOver++;
            if (cause != null) {
                last = cause;
            }
        }

        void busy(Member passed, String line, HttpResponse<byte[]> response, String member) {
            failed(passed, line, null);
            busy = response;
            busyMember = member;
        }
    }

    /** Drops the breakers and endpoints of members no longer on the rings (a restarted member comes back with another UUID). */
    private void prune(RingSnapshot snapshot) {
        prunedTo = snapshot;
        Set<UUID> on = new java.util.HashSet<>();
        for (MemberInfo m : snapshot.members()) {
            on.add(m.member().getUuid());
        }
        breakers.keySet().retainAll(on);
        endpoints.keySet().retainAll(on);
    }

    /** What this client did since it was made. */
    public DirectClientCounts counts() {
        return new DirectClientCounts(answered.sum(), byOwner.sum(), failedOver.sum(), heldOff.sum(), spilled.sum(), unanswered.sum());
    }

    private DirectAnswer answered(HttpResponse<byte[]> response, String member, boolean owner, int passedOver, List<String> sentToOthers) {
        answered.increment();
        if (owner) {
            byOwner.increment();
        }
        DirectAnswer answer = new DirectAnswer(response, member, owner, passedOver, sentToOthers);
        if (answer.spilled()) {
            spilled.increment();
        }
        return answer;
    }

    private HttpRequest request(String method, URI uri, Map<String, List<String>> headers, String passedOver) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(settings.attemptTimeout()).method(method, HttpRequest.BodyPublishers.noBody());
        if (passedOver != null) {
            b.header(PASSED_OVER, passedOver);
        }
        for (Map.Entry<String, List<String>> h : headers.entrySet()) {
            if (SET_BY_THE_JDK.contains(h.getKey().toLowerCase(Locale.ROOT))) {
                continue;
            }
            for (String value : h.getValue()) {
                b.header(h.getKey(), value);
            }
        }
        return b.build();
    }

    private static String requireKey(String key) {
        Objects.requireNonNull(key, "key");
        if (key.isEmpty() || key.length() > 8192) {
            throw new IllegalArgumentException("a key is 1 to 8192 bytes of request target after " + CACHE_PREFIX + ", was " + key.length());
        }
        try {
            URI.create("http://h" + CACHE_PREFIX + key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("key " + key + " is not a request target (percent-encode it as it is to be sent): "
                    + e.getMessage(), e);
        }
        return key;
    }

    /** The features the request requires, from its features header fields, as the members read them. */
    private static Set<String> features(Map<String, List<String>> headers) {
        Set<String> out = null;
        for (Map.Entry<String, List<String>> h : headers.entrySet()) {
            if (!h.getKey().equalsIgnoreCase(FEATURES)) {
                continue;
            }
            for (String value : h.getValue()) {
                for (String f : value.split(",")) {
                    String t = f.trim();
                    if (!t.isEmpty()) {
                        if (out == null) {
                            out = new LinkedHashSet<>();
                        }
                        out.add(t);
                    }
                }
            }
        }
        return out == null ? Set.of() : out;
    }

    /** The whole seconds of a {@code Retry-After} given in seconds; -1 when absent or a date. */
    private static long retryAfterSeconds(HttpResponse<?> response) {
        String v = response.headers().firstValue("Retry-After").orElse(null);
        if (v == null) {
            return -1;
        }
        try {
            return Math.max(0, Long.parseLong(v.trim()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
