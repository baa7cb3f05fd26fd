package io.ketama.router.caching;

import java.util.Objects;

/**
 * The rules of HTTP caching for this shared cache, in one place: what may be stored, how, for how
 * long, when a stored answer may answer a request, when it must be validated first, and what the
 * conditional requests and responses carry. RFC 9111 with the parts of RFC 9110 a cache needs
 * (conditional requests, ranges), RFC 5861 (stale-while-revalidate, stale-if-error) and RFC 9213
 * (targeted fields such as {@code CDN-Cache-Control}).
 *
 * <p>Pure and thread-safe: every method is a function of its arguments and the settings; times are
 * epoch milliseconds passed in, never read from a clock (bar {@link HttpDates#parse}'s two-digit years).
 * What a request or an answer says is read once and kept in their {@code directives} slots: a hit
 * ({@link #reuse}) on a request without {@code Cache-Control} or {@code Pragma} parses and allocates
 * nothing.
 *
 * <p>The caller (the serving path) keeps the answers and talks to the origin. For a request it:
 * <ol>
 *   <li>passes it through untouched unless {@link #usesCache}, and after an unsafe request drops the
 *       stored answers of the target when {@link #invalidates};</li>
 *   <li>picks a stored answer whose {@link #selectors} it stored {@link #matches} the request, and asks
 *       {@link #reuse} what to do with it ({@link #onlyIfCached} requests get a 504 rather than the origin);</li>
 *   <li>asks the origin with {@link #originRequest} (conditional when validating), ages what comes back
 *       with {@link #initialAgeMillis}, updates a stored answer on a 304 with {@link #freshen}, stores a
 *       new one when {@link #storable} as {@link #forStorage} makes it, and falls back on a stale one
 *       when {@link #staleOnError};</li>
 *   <li>answers the client: {@link #preconditions} (with {@link #notModifiedFields} for a 304),
 *       {@link #range}, and an {@code Age} of {@link #ageValue}.</li>
 * </ol>
 */
public final class CachePolicy {

    private final CacheSettings settings;

    public CachePolicy(CacheSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    public CacheSettings settings() {
        return settings;
    }

    /**
     * Whether the cache takes part at all: GET or HEAD, and no request {@code no-store} (§5.2.1.5).
     * Otherwise the request passes to the origin untouched and nothing is stored.
     */
    public boolean usesCache(CacheRequest request) {
        String method = request.method();
        return (method.equals("GET") || method.equals("HEAD")) && !RequestFacts.of(request).cc().noStore();
    }

    /**
     * §4.4: whether a response with {@code status} to a request with {@code method} invalidates the
     * target's stored answers: an unsafe method (anything but GET, HEAD, OPTIONS, TRACE; methods are
     * case-sensitive) answered 2xx or 3xx. (The caller also drops those of the same-origin
     * {@code Location} and {@code Content-Location} where it can.)
     */
    public static boolean invalidates(String method, int status) {
        boolean safe = method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS") || method.equals("TRACE");
        return !safe && status >= 200 && status <= 399;
    }

    /**
     * §4.2.3 {@code corrected_initial_age} in ms of an answer just received from the origin:
     * {@code max(apparent_age, age_value + response_delay)}. {@code apparent_age} from {@code Date} (0
     * when it is missing, invalid or in the future); {@code age_value} from the first member of the
     * first {@code Age} line when it is all digits (else ignored), at most 2^31 s.
     *
     * @param requestTime  when the request was sent, epoch ms
     * @param responseTime when the response arrived, epoch ms
     */
    public static long initialAgeMillis(HttpFields headers, long requestTime, long responseTime) {
        return Ages.initialAgeMillis(headers, requestTime, responseTime);
    }

    /** The {@code Age} field value of an age (§5.1): whole seconds rounded down, at most 2147483648. */
    public static String ageValue(long ageMillis) {
        return Ages.format(ageMillis);
    }

    /**
     * Whether {@code answer} (end-to-end fields as received) to {@code request} may be stored by this
     * shared cache (§3, §3.5, §5.2.2, RFC 9213). Not storable: a request other than GET (a HEAD answer
     * has no body for a later GET) or with {@code no-store}; a non-final status, 206, 304;
     * {@code no-store} (unless {@code must-understand} and the status is understood), or
     * {@code must-understand} with a status not understood; unqualified {@code private}; a request with
     * {@code Authorization} unless {@code public}, {@code must-revalidate} or {@code s-maxage};
     * {@code Set-Cookie} unless the settings allow it; {@code Vary: *} anywhere, or more distinct
     * {@code Vary} fields than {@code maxVaryFields}; and an answer with nothing that makes it storable
     * ({@code public}, {@code Expires}, {@code max-age}, {@code s-maxage}, or a heuristically cacheable
     * status). A valid targeted field replaces {@code Cache-Control} and {@code Expires} throughout.
     */
    public boolean storable(CacheRequest request, OriginAnswer answer) {
        return Storability.storable(request, answer, settings);
    }

    /**
     * The answer as it is stored: the fields named by qualified {@code private="..."} and
     * {@code no-cache="..."} dropped, and a {@code Date} added (IMF-fixdate of
     * {@code answer.responseTime()}) where it has none (RFC 9110 §6.6.1). The same instance when nothing
     * changes.
     */
    public OriginAnswer forStorage(OriginAnswer answer) {
        return StoredFields.forStorage(answer, AnswerFacts.of(answer, settings).cc());
    }

    /**
     * §4.3.4 / §3.2: {@code stored} freshened by {@code notModified} (a 304 received for it): each field of
     * the 304 replaces every line of that name in the stored fields (added when absent), except
     * {@code Content-Length} and hop-by-hop fields; then as {@link #forStorage} (the new directives may
     * name fields to drop). Status and body are the stored ones; responseTime and initialAgeMillis the
     * 304's.
     */
    public OriginAnswer freshen(OriginAnswer stored, OriginAnswer notModified) {
        return forStorage(StoredFields.freshen(stored, notModified));
    }

    /**
     * §4.1: the selecting values of {@code request} for {@code answer}'s {@code Vary}, to store beside the
     * answer: one normalised value per distinct field named, in {@code Vary} order, null for a field the
     * request lacks; null when the answer has no {@code Vary}. Normalised: every line's list members
     * trimmed and joined by {@code ","}; for {@code Accept-Language}, also lower-cased and sorted.
     */
    public String[] selectors(OriginAnswer answer, CacheRequest request) {
        String[] names = AnswerFacts.of(answer, settings).vary().names();
        if (names == null) {
            return null;
        }
        String[] values = new String[names.length];
        for (int i = 0; i < names.length; i++) {
            values[i] = VaryFields.normalised(request.headers(), names[i]);
        }
        return values;
    }

    /**
     * §4.1: whether {@code answer}, stored for a request whose selectors were {@code storedSelectors},
     * may answer {@code request}: every field named matches after normalisation (absent matches only
     * absent); {@code Vary: *} never matches; an answer without {@code Vary} always does.
     */
    public boolean matches(OriginAnswer answer, String[] storedSelectors, CacheRequest request) {
        VaryFields.Vary vary = AnswerFacts.of(answer, settings).vary();
        if (vary.star()) {
            return false;
        }
        String[] names = vary.names();
        if (names == null) {
            return true;
        }
        if (storedSelectors == null || storedSelectors.length != names.length) {
            return false;
        }
        for (int i = 0; i < names.length; i++) {
            if (!Objects.equals(storedSelectors[i], VaryFields.normalised(request.headers(), names[i]))) {
                return false;
            }
        }
        return true;
    }

    /** What to do with a stored answer for a request (§4, §4.2.4, RFC 5861 §3). */
    public enum Reuse {
        /** Serve it: fresh enough for the request. */
        FRESH,
        /** Serve it though stale: the request's {@code max-stale} allows. */
        STALE_ALLOWED,
        /** Serve it though stale, and validate it in the background: within its {@code stale-while-revalidate}. */
        STALE_WHILE_REVALIDATE,
        /** Ask the origin conditionally ({@link #originRequest} with it) before serving it. */
        VALIDATE,
        /** Ask the origin for a new answer: it has no validator to ask conditionally with. */
        FETCH
    }

    /**
     * What to do with a stored (selected) answer for {@code request} at {@code now}:
     * <ul>
     *   <li>{@code VALIDATE} (or {@code FETCH} where it has no validator) when the response says
     *       {@code no-cache}, the request says {@code no-cache} (or {@code Pragma: no-cache} without any
     *       {@code Cache-Control}, §5.4), the request's {@code max-age} or {@code min-fresh} is not met, or
     *       it is stale and nothing below allows serving it;</li>
     *   <li>{@code FRESH} when its age is below its freshness lifetime (§4.2);</li>
     *   <li>{@code STALE_ALLOWED} when stale within the request's {@code max-stale} (§5.2.1.2);</li>
     *   <li>{@code STALE_WHILE_REVALIDATE} when stale within its {@code stale-while-revalidate} window and the
     *       request sets no freshness bounds of its own.</li>
     * </ul>
     * Never stale with {@code must-revalidate}, {@code proxy-revalidate} or {@code s-maxage} (§4.2.4,
     * §5.2.2.2, .8, .10).
     */
    public Reuse reuse(OriginAnswer stored, CacheRequest request, long now) {
        RequestFacts rq = RequestFacts.of(request);
        AnswerFacts facts = AnswerFacts.of(stored, settings);
        CacheControl cc = facts.cc();
        CacheControl rc = rq.cc();
        long age = stored.ageMillis(now);
        long lifetime = facts.lifetimeMillis();
        Reuse validate = facts.hasValidator() ? Reuse.VALIDATE : Reuse.FETCH;
        if (cc.noCache() || rq.noCache()) {
            return validate;
        }
        if (rc.maxAge() >= 0 && age > DeltaSeconds.millis(rc.maxAge())) {
            return validate; // §5.2.1.1
        }
        if (age < lifetime) {
            boolean freshEnough = rc.minFresh() < 0 || lifetime - age >= DeltaSeconds.millis(rc.minFresh()); // §5.2.1.3
            return freshEnough ? Reuse.FRESH : validate;
        }
        if (cc.forbidsStale() || rc.minFresh() >= 0) {
            return validate;
        }
        long staleness = age - lifetime;
        if (rc.maxStale() >= 0 && (rc.maxStale() == CacheControl.ANY_STALENESS || staleness <= DeltaSeconds.millis(rc.maxStale()))) {
            return Reuse.STALE_ALLOWED;
        }
        if (cc.staleWhileRevalidate() >= 0 && staleness <= DeltaSeconds.millis(cc.staleWhileRevalidate()) && rc.maxAge() < 0) {
            return Reuse.STALE_WHILE_REVALIDATE;
        }
        return validate;
    }

    /**
     * Whether a stale stored answer may answer {@code request} because the origin gave no answer or a
     * 500, 502, 503 or 504 (§4.2.4 "disconnected"; RFC 5861 §4): within the {@code stale-if-error} of
     * the response or of the request where either has one, else within {@code staleIfErrorMillis} of
     * the settings, or within the request's {@code max-stale}. Never with {@code must-revalidate},
     * {@code proxy-revalidate}, {@code s-maxage} or {@code no-cache} in the response.
     */
    public boolean staleOnError(OriginAnswer stored, CacheRequest request, long now) {
        AnswerFacts facts = AnswerFacts.of(stored, settings);
        CacheControl cc = facts.cc();
        if (cc.forbidsStale()) {
            return false;
        }
        CacheControl rc = RequestFacts.of(request).cc();
        long staleness = Math.max(0, stored.ageMillis(now) - facts.lifetimeMillis());
        if (rc.maxStale() >= 0 && (rc.maxStale() == CacheControl.ANY_STALENESS || staleness <= DeltaSeconds.millis(rc.maxStale()))) {
            return true;
        }
        if (cc.staleIfError() >= 0 || rc.staleIfError() >= 0) {
            return staleness <= DeltaSeconds.millis(cc.staleIfError()) || staleness <= DeltaSeconds.millis(rc.staleIfError());
        }
        return staleness <= settings.staleIfErrorMillis();
    }

    /** Whether the request says {@code only-if-cached} (§5.2.1.7): answer 504 rather than ask the origin. */
    public boolean onlyIfCached(CacheRequest request) {
        return RequestFacts.of(request).cc().onlyIfCached();
    }

    /**
     * §4.2.1/§4.2.2: the freshness lifetime in ms: a valid targeted field's {@code s-maxage} or
     * {@code max-age}, else {@code s-maxage}, else {@code max-age}, else {@code Expires} minus
     * {@code Date} (0 when {@code Expires} is invalid or its lines disagree; the time of arrival when
     * {@code Date} is missing or invalid), else a heuristic ({@code heuristicPercent} of {@code Date}
     * minus {@code Last-Modified}, at most {@code heuristicMaxMillis}, or {@code defaultTtlMillis} without
     * a {@code Last-Modified}), only for a heuristically cacheable status or {@code public}; else 0.
     * {@code max-age}/{@code s-maxage}: first occurrence wins, names without case, digits (quoted or
     * not, leading zeros allowed) else 0, at most 2^31 s.
     */
    public long freshnessLifetimeMillis(OriginAnswer answer) {
        return AnswerFacts.of(answer, settings).lifetimeMillis();
    }

    /**
     * Whether a storable answer is worth keeping as it arrives at {@code now}: fresh then, or with a
     * validator (a later request revalidates it and is sent only a {@code 304}'s worth). An answer stale
     * on arrival without a validator (dynamic content that says nothing of its freshness, a 301 without
     * a lifetime) could only ever stand in for a failed origin: RFC 9111 lets a cache not store it, and
     * storing it would evict answers that serve.
     */
    public boolean worthKeeping(OriginAnswer answer, long now) {
        AnswerFacts facts = AnswerFacts.of(answer, settings);
        return facts.hasValidator() || facts.lifetimeMillis() > answer.ageMillis(now);
    }

    /**
     * How long past the end of its freshness an answer can still be of use, for eviction:
     * {@code Long.MAX_VALUE} when it has a validator (it may be revalidated whenever), else 0 when it
     * may never be served stale, else the largest of its {@code stale-while-revalidate}, its
     * {@code stale-if-error} and the settings' {@code staleIfErrorMillis}.
     */
    public long usefulPastStaleMillis(OriginAnswer answer) {
        AnswerFacts facts = AnswerFacts.of(answer, settings);
        if (facts.hasValidator()) {
            return Long.MAX_VALUE;
        }
        CacheControl cc = facts.cc();
        if (cc.forbidsStale()) {
            return 0;
        }
        long swr = DeltaSeconds.millis(Math.max(0, cc.staleWhileRevalidate()));
        long sie = DeltaSeconds.millis(Math.max(0, cc.staleIfError()));
        return Math.max(Math.max(swr, sie), settings.staleIfErrorMillis());
    }

    /**
     * §4.3.1: the fields the cache sends the origin for {@code request}: the request's end-to-end fields
     * less the client's preconditions ({@code If-None-Match}, {@code If-Modified-Since}, {@code If-Match},
     * {@code If-Unmodified-Since}, {@code If-Range}) and {@code Range}; and, when {@code stored} is not
     * null, {@code If-None-Match} with its {@code ETag} and {@code If-Modified-Since} with its
     * {@code Last-Modified} (when a valid date), each as the origin sent it. The caller adds
     * {@code Via} and {@code Host}.
     */
    public HttpFields originRequest(CacheRequest request, OriginAnswer stored) {
        return Validation.originRequest(request, stored);
    }

    /**
     * RFC 9110 §13.2.2 evaluated for {@code request} against {@code answer} as the cache will send it:
     * 412 when {@code If-Match} has no strong match (or, without {@code If-Match}, {@code Last-Modified}
     * is later than {@code If-Unmodified-Since}); else 304 for GET/HEAD when {@code If-None-Match} has a
     * weak match (412 for other methods), or, without {@code If-None-Match}, when {@code Last-Modified}
     * (or {@code Date} where there is none) is not later than {@code If-Modified-Since}; else
     * {@code answer.status()}. Only when {@code answer.status()} is 2xx. Unquoted entity-tags compare by
     * their text.
     */
    public static int preconditions(CacheRequest request, OriginAnswer answer) {
        return Preconditions.evaluate(request, answer);
    }

    /**
     * RFC 9110 §15.4.5: the fields a 304 carries for {@code answer}: its {@code Cache-Control},
     * {@code Content-Location}, {@code Date}, {@code ETag}, {@code Expires}, {@code Vary}, and
     * {@code Last-Modified} when it has no {@code ETag}, in their order.
     */
    public static HttpFields notModifiedFields(OriginAnswer answer) {
        return Validation.notModifiedFields(answer);
    }

    /**
     * RFC 9110 §14: the one byte range a GET {@code request} asks of a 200 {@code answer}, or null to send
     * the whole (no {@code Range}, a unit other than bytes, several ranges, invalid syntax, an
     * {@code If-Range} that does not hold: a strong {@code ETag} match or the exact
     * {@code Last-Modified} date), or an unsatisfiable range ({@link ByteRange#isUnsatisfiable()}, equal
     * to {@link ByteRange#UNSATISFIABLE}, carrying the complete length for the 416's
     * {@code Content-Range}).
     */
    public static ByteRange range(CacheRequest request, OriginAnswer answer) {
        return Ranges.range(request, answer);
    }
}
