package io.ketama.router;

import io.ketama.router.forwarding.TransportKind;
import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The service's settings, under {@code ketama.router.*} (environment: {@code KETAMA_ROUTER_…}). */
@ConfigMapping(prefix = "ketama.router")
public interface RouterConfig {

    Cache cache();

    Origin origin();

    Proxy proxy();

    Forward forward();

    Admission admission();

    BoundedLoad boundedLoad();

    NearCache nearCache();

    HotKeys hotKeys();

    Purge purge();

    /**
     * Purges across the cluster ({@code POST /q/ketama/purge}, the {@code PURGE} method, unsafe methods):
     * how long a purge waits for the members to confirm, and how long a member cut off by failure is
     * still named as not confirmed.
     */
    interface Purge {
        /**
         * How long a purge waits for every member to confirm it dropped the answers; past it the call
         * answers 202 naming those that did not (they are asked again every second). It also bounds the
         * stand-still after which a member drops everything it holds (three quarters of it, at least
         * 500 ms): a member stalled past a purge's wait never serves what it held before. 100 ms to
         * 1 min, else start-up stops naming this key.
         */
        @WithDefault("2s")
        Duration timeout();

        /**
         * How long a member that left by failure (not a drain) is named in every purge's answer as not
         * confirmed: when it comes back within it (a partition healed, a merge), every member drops
         * what it held; past it, it is forgotten. 1 s to 7 days, else start-up stops naming this key.
         */
        @WithDefault("10m")
        Duration missingFor();

        /**
         * Whether the tag fields ({@code Surrogate-Key}, {@code Cache-Tag}) reach clients; off, as the
         * CDNs that read them do.
         */
        @WithDefault("false")
        boolean exposeTags();
    }

    /**
     * The keys entering this member that it counts as hot: a count-min sketch of every key asked for
     * here (4 x 4,096 counters, 64 KiB), decayed by halving, and the heaviest keys beside it. A hot key
     * is kept near when another member serves it ({@code ketama.router.near-cache.*}), spilled first by
     * its owner past its soft bound, and listed on the management interface ({@code /q/ketama/hot-keys}).
     */
    interface HotKeys {
        /** How many of the heaviest keys are listed (and spilled first). 1 to 1024, else start-up stops naming this key. */
        @WithDefault("32")
        int top();

        /**
         * A key is hot once it was asked for about this many times here within {@link #window()}
         * (counts halve every window, so a key asked {@code r} times a second counts between
         * {@code r·window} and {@code 2·r·window}): at 16 and 1 s, a key asked some 10 times a second or
         * more. 1 to 1,000,000, else start-up stops naming this key, the value and the range.
         */
        @WithDefault("16")
        int minRequests();

        /** How often every count halves: the memory of the sketch. 100 ms to 1 h, else start-up stops naming this key. */
        @WithDefault("1s")
        Duration window();
    }

    /**
     * Near copies: an entry member keeps the plain {@code 200} answers other members sent it for hot keys
     * ({@code ketama.router.hot-keys.*}) for {@link #ttl()}, and answers their requests from them
     * ({@code X-Ketama-Cache: NEAR}) without a hop. Not for requests that require features.
     */
    interface NearCache {
        /** Whether this member keeps near copies. */
        @WithDefault("true")
        boolean enabled();

        /**
         * Most heap the near copies take, e.g. {@code 16M}, weighed as the local cache weighs an entry
         * (key, body, 176 bytes of structures); past it the less frequent keys go (W-TinyLFU). Its own
         * bound, apart from {@code ketama.router.admission.max-buffered-bytes}. 1 byte to
         * 9,223,372,036,854,775,807 bytes, else start-up stops naming this key, the value and the range.
         */
        @WithDefault("16M")
        MemorySize maxBytes();

        /**
         * How long a near copy is served after it was received: the most it may lag behind its owner's
         * answer. Then the next request goes to the owner and its answer replaces the copy. More than 0
         * and at most 1 h, else start-up stops naming this key, the value and the range.
         */
        @WithDefault("1s")
        Duration ttl();
    }

    /**
     * How this service holds each member to its bound (consistent hashing with bounded loads for the
     * whole cluster's load: see app/README, "Hot keys"). Whether it does, and the balance factor, are
     * the extension's {@code quarkus.ketama.bounded-load.enabled} and {@code .factor}, which the
     * service turns on.
     */
    interface BoundedLoad {
        /**
         * The window a member counts the answers it serves in: after each, it publishes its rate to
         * the others and takes its bound for the next from theirs. Shorter windows react sooner and
         * cost more board traffic (one small replicated write a member a window); longer ones smooth
         * chance out. 10 ms to 10 s, else start-up stops naming this key, the value and the range.
         */
        @WithDefault("500ms")
        Duration window();

        /**
         * Answers a second a member may always serve, whatever the cluster's mean: below it nothing
         * spills (in a quiet window a member's count is mostly chance, and spilling it would only cost
         * a second hop). 0 to 10,000,000, else start-up stops naming this key, the value and the range.
         */
        @WithDefault("200")
        long minRate();
    }

    interface Admission {
        /**
         * {@code /cache/} requests this member works on at once (served here, forwarded, waiting for
         * the origin); past it, a request is answered 503 with {@code Retry-After} at once. Set it
         * to a few times the requests in flight at which the member reaches its peak throughput.
         */
        @WithDefault("128")
        int maxInFlight();

        /**
         * Bytes of the bodies this member receives from the network and holds whole that it may hold
         * together, e.g. {@code 128M}: the answers of its origin fetches under way (its own misses,
         * forwarded misses and bypasses alike), and the replies other members send to its forwards,
         * until they are written to the client. A fetch reserves its whole {@code Content-Length}
         * before reading the body, or, without one, each chunk as it arrives, and gives the bytes
         * back when it ends; a fetch that finds no room is refused at once (its body not read
         * further, nothing cached, every request waiting for that key answered alike) with a 503
         * {@code overloaded} problem and {@code Retry-After}. A reply is reserved as it arrives (over
         * {@code binary} from its frame's head, before its body; over {@code http} as a fetch is; over
         * {@code hazelcast} once Hazelcast hands it over, having read it whole) and given back once
         * written to the client or the client is gone; one that finds no room is answered 503
         * {@code overloaded} with {@code Retry-After} at once, without trying another candidate (its
         * reply would need the same room here) and without counting against the member that
         * answered. Unset: a quarter of the largest heap
         * ({@code -Xmx}; {@code Runtime.maxMemory() / 4}), but at least
         * {@code ketama.router.origin.max-body-bytes}. At least {@code max-body-bytes}, so one body
         * of the largest size always fits, and at most 9,223,372,036,854,775,807 bytes (a long),
         * else start-up stops naming this key, the value and the range.
         */
        Optional<MemorySize> maxBufferedBytes();
    }

    /**
     * The shared HTTP cache (RFC 9111) each member keeps of the answers it serves: what it stores,
     * for how long, and how it keys them. What an answer's own {@code Cache-Control}, {@code Expires},
     * {@code Vary}, validators and {@code stale-while-revalidate} / {@code stale-if-error} say always
     * rules; these keys decide only what HTTP leaves to the cache.
     */
    interface Cache {
        /**
         * Most heap the local cache holds, e.g. {@code 64M}, {@code 1G}: keys, bodies (padded to 8
         * bytes) and header fields (names and common values shared), plus 192 bytes an entry for its
         * structures (240 on heaps of 32 GB or more) and 96 for each further variant of a key, as JOL
         * measured them. 1 byte to 9,223,372,036,854,775,807 bytes (a long), else start-up stops
         * naming this key, the value and the range.
         */
        @WithDefault("64M")
        MemorySize maxBytes();

        /**
         * How a request's cache key is made, in nginx's notation: {@code $request_uri} (the target as
         * the mount sees it), {@code $host}, {@code $scheme}, {@code $request_method} and plain text,
         * e.g. {@code $host$request_uri} where one service fronts several sites. The ring places each
         * key by it. Must name {@code $request_uri}, else start-up stops naming this key. The default
         * is nginx's {@code hash $request_uri consistent}.
         */
        @WithDefault("$request_uri")
        String key();

        /**
         * Freshness given to a storable answer that states none (no {@code max-age}, {@code s-maxage},
         * {@code Expires}, and no {@code Last-Modified} to guess from): {@code 0s} (the default, as
         * nginx and RFC 9111 §4.2.2 would have it) stores it only where it has a validator, to be
         * revalidated on every use. 0 to 365 days, else start-up stops naming this key.
         */
        @WithDefault("0s")
        Duration defaultTtl();

        /**
         * Heuristic freshness (RFC 9111 §4.2.2) as a share of the time since an answer's
         * {@code Last-Modified}, for answers that state no freshness and whose status is cacheable by
         * default: 10 (the RFC's example) gives an answer last changed ten days ago one day. 0 turns it
         * off. 0 to 100, else start-up stops naming this key.
         */
        @WithDefault("10")
        int heuristicPercent();

        /** The most heuristic freshness any answer gets. 0 to 365 days, else start-up stops naming this key. */
        @WithDefault("24h")
        Duration heuristicMax();

        /**
         * Whether an answer with {@code Set-Cookie} may be stored and served to other clients. Off by
         * default, as in nginx and Varnish: an origin that sets a session cookie on a page it also marks
         * shareable would hand one client's session to the next. RFC 9111 allows storing it; turn this on
         * only for an origin whose cookies are the same for everyone.
         */
        @WithDefault("false")
        boolean storeSetCookie();

        /**
         * How long past its freshness a stored answer may still be served when the origin cannot be
         * reached or answers 500, 502, 503 or 504, where the answer does not forbid it
         * ({@code must-revalidate}, {@code proxy-revalidate}, {@code s-maxage}, {@code no-cache}) and
         * says nothing itself ({@code stale-if-error} wins). RFC 9111 §4.2.4 allows a cache that cannot
         * reach the origin to serve stale; {@code 0s} never does. 0 to 365 days, else start-up stops
         * naming this key.
         */
        @WithDefault("60s")
        Duration staleIfError();

        /**
         * Answers kept per key that differ by what their {@code Vary} names (an
         * {@code Accept-Encoding} key has two or three); past it the oldest go. 1 to 1,000, else
         * start-up stops naming this key.
         */
        @WithDefault("8")
        int maxVariants();

        /**
         * An answer whose {@code Vary} names more distinct fields than this is not stored (passed to its
         * client only): each would multiply the variants. 1 to 1,000, else start-up stops naming this key.
         */
        @WithDefault("16")
        int maxVaryFields();

        /**
         * The targeted cache-control fields this cache obeys (RFC 9213), first found and valid wins; where
         * one is, it replaces {@code Cache-Control} and {@code Expires} for this cache (and still reaches
         * the client). {@code CDN-Cache-Control} by default: the service is a shared cache in front of
         * an origin, as a CDN is. {@code none} turns it off.
         */
        @WithDefault("CDN-Cache-Control")
        List<String> targetedFields();
    }

    /**
     * The service as a reverse proxy: every path but its own is passed to the origin, each method with
     * its fields and body (app/README, "What is proxied").
     */
    interface Proxy {
        /**
         * The pseudonym this service names itself with in the {@code Via} field it adds to every request
         * it sends the origin and every answer it sends a client (RFC 9110 §7.6.3), after
         * {@code 1.1}. A token: letters, digits and {@code !#$%&'*+-.^_`|~}, else start-up stops naming
         * this key.
         */
        @WithDefault("ketama-router")
        String via();

        /**
         * Request fields never passed to the origin: inputs many origins read that no cache key covers,
         * through which one client could make the answer stored for everyone (cache poisoning).
         * {@code none} passes every field; add those your origin reads without {@code Vary}.
         */
        @WithDefault("X-Forwarded-Host,X-Forwarded-Server,X-Forwarded-Scheme,X-Original-URL,X-Rewrite-URL,"
                + "X-HTTP-Method-Override,X-HTTP-Method,X-Method-Override")
        List<String> stripRequestFields();

        /**
         * Largest request body passed to the origin (a {@code POST}, a {@code PUT}), held whole while it is
         * sent; a larger one is answered 413. nginx's {@code client_max_body_size} default. 0 to 256M,
         * else start-up stops naming this key.
         */
        @WithDefault("1M")
        MemorySize maxRequestBodyBytes();
    }

    interface Origin {
        /** Absolute http(s) base URL; key {@code k} is fetched from {@code <base-url>/<k>}. Unset: the built-in demo origin. */
        Optional<String> baseUrl();

        /** How long the demo origin takes to answer. */
        @WithDefault("20ms")
        Duration demoDelay();

        /** What the demo origin's answers say in {@code Cache-Control: max-age}. At least 0, else start-up stops naming this key. */
        @WithDefault("1h")
        Duration demoMaxAge();

        /**
         * Largest header block of an origin's answer this member reads, e.g. {@code 16K}; a larger one is
         * answered with a 502 {@code origin-unavailable} problem saying so (nginx's "upstream sent too big
         * header"). 1K to 1M, else start-up stops naming this key.
         */
        @WithDefault("16K")
        MemorySize maxHeaderBytes();

        /** How long an HTTP origin may take to answer. */
        @WithDefault("5s")
        Duration timeout();

        /**
         * Origin fetches this member may have under way at once (its own misses, forwarded misses and
         * bypasses, waiting for a connection included); past it, a request that needs one more is
         * answered 503 with {@code Retry-After} at once. One fetch per key at a time, whatever the count.
         * The bytes they hold together are bounded by {@code ketama.router.admission.max-buffered-bytes},
         * not by this count.
         */
        @WithDefault("256")
        int maxInFlight();

        /**
         * Whether a redirect's {@code Location} that points into the origin ({@code <base-url>/k},
         * absolute or as a path) is sent to the client as {@code /cache/k}, as nginx's
         * {@code proxy_redirect default} does, so that a client following it stays behind the cache.
         * {@code false}: every {@code Location} as the origin sent it. A {@code Location} elsewhere,
         * or a relative path (which already resolves below {@code /cache/}), is never changed.
         */
        @WithDefault("true")
        boolean rewriteLocation();

        /** Keep-alive connections an HTTP origin gets at most. */
        @WithDefault("64")
        int maxConnections();

        /**
         * Largest body of an origin answer this member takes, e.g. {@code 16M}: bodies are held whole
         * in memory (while fetched, cached, and sent between members); what the fetches under way
         * hold together is bounded by {@code ketama.router.admission.max-buffered-bytes}. A larger
         * answer is refused from its {@code Content-Length}, or as its bytes arrive, with a 502 {@code origin-answer-too-large}
         * problem, and nothing is cached. This member takes a forwarded answer (from the owner it sent
         * a key to, by any transport) only up to this size too, whatever the owner's own limit: a
         * larger one fails that forward and the next candidate serves. 1 byte to 268,173,312 bytes
         * (the binary channel's largest frame, 256 MiB, less 256 KiB for the rest of a reply), else
         * start-up stops naming this key, the value and the range.
         */
        @WithDefault("16M")
        MemorySize maxBodyBytes();
    }

    interface Forward {
        /**
         * How keys travel to their owner: {@code binary} (a persistent TCP channel per peer),
         * {@code http} (pooled keep-alive HTTP/1.1 to the owner's HTTP port) or {@code hazelcast}
         * (the cluster's executor service). Every member receives all three; this picks how it sends.
         */
        @WithDefault("binary")
        TransportKind transport();

        /** Time limit of one forward attempt to another member. */
        @WithDefault("2s")
        Duration timeout();

        /**
         * Further attempts at the same member after a failed one; none after an open breaker, a busy
         * or departed member, a member that serves no keys, a member that publishes no usable port
         * for the transport, or a member the origin did not answer.
         */
        @WithDefault("1")
        int maxRetries();

        /** Pause before a retry. */
        @WithDefault("25ms")
        Duration retryDelay();

        /** Distinct members tried for one key (owner first) before fetching from the origin directly. */
        @WithDefault("3")
        int maxCandidates();

        /**
         * A secret every member of the cluster shares (at least 16 visible ASCII characters), which a
         * member must show before another serves its forwards: the first frame of each binary
         * connection, a header on each {@code http} forward. Without it whoever reaches the binary
         * port or {@code /_ketama/forward/} on the HTTP port can make a member fetch and cache any
         * key. Unset: forwards are served from anyone (as before). Set it to the same value on every
         * member; while it differs between members, their forwards to each other are refused and fail
         * over to the next candidate or the origin (answered, not lost). Give it by environment
         * variable or a Kubernetes Secret rather than in a file.
         */
        Optional<String> secret();

        Breaker breaker();

        Bulkhead bulkhead();

        Binary binary();

        Http http();

        Hazelcast hazelcast();

        interface Http {
            /** Keep-alive connections the {@code http} transport keeps to each other member at most. */
            @WithDefault("64")
            int maxConnections();
        }

        interface Binary {
            /**
             * Port of this member's binary forward channel, which every member runs whatever its own
             * transport; 0 takes any free port. The other members learn it from this member's
             * Hazelcast attributes. Give it a fixed value where a firewall or network policy lists ports.
             */
            @WithDefault("0")
            int port();

            /** Address the binary channel listens on (the HTTP server's by default). */
            @WithDefault("${quarkus.http.host:0.0.0.0}")
            String host();
        }

        interface Bulkhead {
            /** Forwards to one member under way at once. */
            @WithDefault("256")
            int maxInFlight();

            /**
             * Forwards to one member that may wait for a slot; past both limits the member is busy:
             * the next candidate serves, or the request gets a 503 with {@code Retry-After}.
             */
            @WithDefault("32")
            int maxWaiting();
        }

        interface Hazelcast {
            /** Threads serving keys forwarded by the {@code hazelcast} transport (a miss holds one until the origin answers). */
            @WithDefault("8")
            int threads();

            /** Keys forwarded by the {@code hazelcast} transport that may wait for one of those threads. */
            @WithDefault("1024")
            int queueCapacity();
        }

        interface Breaker {
            /** Forwards in the rolling window a member's circuit breaker judges, 1 to 100000. */
            @WithDefault("4")
            int requestVolumeThreshold();

            /**
             * Failed share of the window that opens the breaker, in (0, 1], judged once the window is
             * full; a busy member, a missing origin answer or a member that publishes no usable port
             * for the transport is not a failure.
             */
            @WithDefault("0.5")
            double failureRatio();

            /**
             * How long an open breaker waits before letting one trial forward through; the trial's
             * success closes it, its failure opens it for another delay.
             */
            @WithDefault("5s")
            Duration delay();
        }
    }
}
