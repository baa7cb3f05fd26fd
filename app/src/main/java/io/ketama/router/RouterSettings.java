package io.ketama.router;

import io.ketama.router.forwarding.binary.BinaryForwardServer;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.ForwardSettings;
import io.ketama.router.forwarding.hazelcast.HazelcastForwarding;
import io.ketama.router.purge.PurgeSettings;
import io.ketama.router.forwarding.http.HttpForwardClient;
import io.ketama.router.forwarding.TransportKind;
import io.ketama.router.hot.HotKeys;
import io.ketama.router.hot.NearCache;
import io.ketama.router.load.LoadSettings;
import io.ketama.router.caching.CacheSettings;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.BoundedOrigin;
import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.HttpOrigin;
import io.quarkus.runtime.configuration.MemorySize;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The service's settings ({@code ketama.router.*}), validated once at start-up: every key is read
 * here and nowhere else, and every typed value the parts are made from is held here. An invalid
 * key fails start-up with one line per invalid key, each naming the key, what was wrong and what is
 * allowed ({@code invalid configuration <key>: <what>}); with several invalid keys, all are named
 * together, so an operator fixes them in one round.
 *
 * <p>The extension's own keys ({@code quarkus.ketama.*}) are the extension's to validate; the only
 * ones the service uses, the bounded-load switch and factor, are joined to {@link #boundedLoad} by
 * {@link LoadSettings#switched} where the parts are made.
 *
 * @param cacheMaxBytes    {@code ketama.router.cache.max-bytes}: 1 byte to {@link Long#MAX_VALUE}
 * @param maxBufferedBytes {@code ketama.router.admission.max-buffered-bytes}, its default resolved
 * @param maxInFlight      {@code ketama.router.admission.max-in-flight}: 1 to 1,000,000
 * @param origin           {@code ketama.router.origin.*}
 * @param redirects        how a redirect's {@code Location} is sent ({@code ketama.router.origin.rewrite-location})
 * @param forward          {@code ketama.router.forward.*}
 * @param guards           the guards of forwards ({@code ketama.router.forward.*}: timeout, retries, breaker, bulkhead)
 * @param hotKeys          {@code ketama.router.hot-keys.*}
 * @param nearCache        {@code ketama.router.near-cache.*}
 * @param boundedLoad      {@code ketama.router.bounded-load.*}, with the switch off until joined to the extension's
 * @param cache            the rules of the HTTP cache ({@code ketama.router.cache.*} but the size and the key)
 * @param maxVariants      {@code ketama.router.cache.max-variants}
 * @param proxy            {@code ketama.router.proxy.*} and the key ({@code ketama.router.cache.key})
 * @param purge            {@code ketama.router.purge.*}
 */
record RouterSettings(long cacheMaxBytes, long maxBufferedBytes, int maxInFlight, OriginSettings origin,
                      RedirectLocations redirects, ForwardEndpointSettings forward, ForwardSettings guards,
                      HotKeySettings hotKeys, NearCacheSettings nearCache, LoadSettings boundedLoad, CacheSettings cache,
                      int maxVariants, ProxySettings proxy, PurgeSettings purge) {

    static final String PREFIX = "ketama.router.";
    static final String CACHE_MAX_BYTES = PREFIX + "cache.max-bytes";
    static final String MAX_BODY_BYTES = HttpOrigin.MAX_BODY_BYTES_KEY;
    static final String MAX_IN_FLIGHT = PREFIX + "admission.max-in-flight";
    static final String ORIGIN = PREFIX + "origin";
    static final String FORWARD = PREFIX + "forward";
    static final String HOT_KEYS = PREFIX + "hot-keys";
    static final String NEAR_CACHE = PREFIX + "near-cache";
    static final String CACHE = PREFIX + "cache";
    static final String PROXY = PREFIX + "proxy";
    /** The largest request body a member may be set to pass whole: 256 MiB. */
    static final int MAX_REQUEST_BODY_BYTES = 256 * 1024 * 1024;
    /** A list setting's value for "none" (a list cannot be empty in configuration). */
    static final String NONE = "none";

    /**
     * @param baseUrl         the origin's base URL, trimmed; empty: the demo origin
     * @param demoDelay       the demo origin's delay, at least 0
     * @param timeout         how long an origin fetch may take
     * @param maxConnections  connections kept open to the origin
     * @param maxInFlight     origin fetches under way at once
     * @param maxBodyBytes    the largest body taken, from the origin or another member: 1 to
     *                        {@link BinaryForwardServer#MAX_BODY_BYTES}
     * @param maxHeaderBytes  the largest header block of an origin's answer read
     * @param demoMaxAge      what the demo origin's answers say in {@code max-age}
     */
    record OriginSettings(Optional<String> baseUrl, Duration demoDelay, Duration timeout, int maxConnections,
                          int maxInFlight, int maxBodyBytes, int maxHeaderBytes, Duration demoMaxAge) {
    }

    /**
     * @param key                 how a request's key is made
     * @param stripRequestFields  fields never passed to the origin
     * @param via                 the {@code Via} line this service adds: {@code 1.1 <pseudonym>}
     * @param maxRequestBodyBytes the largest request body passed to the origin
     */
    record ProxySettings(KeyTemplate key, List<String> stripRequestFields, String via, int maxRequestBodyBytes) {
    }

    /**
     * @param transport          how this member sends keys to their owner
     * @param timeout            one forward attempt's time limit
     * @param httpMaxConnections the {@code http} transport's connections per peer
     * @param secret             what members show one another
     * @param binaryHost         where the binary channel listens
     * @param binaryPort         its port, 0: any free one
     * @param hazelcastThreads   the Hazelcast transport's threads
     * @param hazelcastQueue     forwards that may wait for one of them
     */
    record ForwardEndpointSettings(TransportKind transport, Duration timeout, int httpMaxConnections, ForwardSecret secret,
                                   String binaryHost, int binaryPort, int hazelcastThreads, int hazelcastQueue) {
    }

    /** {@code ketama.router.hot-keys.*}, checked by {@link HotKeys#check}. */
    record HotKeySettings(int top, int minRequests, Duration window) {
    }

    /** {@code ketama.router.near-cache.*}, checked by {@link NearCache#check}. */
    record NearCacheSettings(boolean enabled, long maxBytes, Duration ttl) {
    }

    /**
     * {@code config} validated.
     *
     * @param httpPort this member's HTTP port as configured (0: chosen at start, which the {@code http}
     *                 transport cannot use)
     * @throws IllegalArgumentException naming every invalid key, one line each
     */
    static RouterSettings from(RouterConfig config, int httpPort) {
        Problems problems = new Problems();
        Long cacheMaxBytes = problems.check(CACHE_MAX_BYTES, () -> cacheMaxBytes(config.cache().maxBytes()));
        Integer maxBodyBytes = problems.check(MAX_BODY_BYTES, () -> maxBodyBytes(config.origin().maxBodyBytes()));
        Long maxBufferedBytes = maxBodyBytes == null ? null
                : problems.check(BodyBudget.KEY, () -> maxBufferedBytes(config.admission().maxBufferedBytes(), maxBodyBytes));
        Integer maxInFlight = problems.check(MAX_IN_FLIGHT, () -> {
            int max = config.admission().maxInFlight();
            if (max < 1 || max > 1_000_000) {
                throw new IllegalArgumentException("must be in 1..1000000, was " + max);
            }
            return max;
        });
        OriginSettings origin = maxBodyBytes == null ? null : problems.check(ORIGIN, () -> origin(config.origin(), maxBodyBytes));
        // Made from the base URL only once that is known to be valid; otherwise it is already named.
        RedirectLocations redirects = origin == null ? RedirectLocations.NONE
                : RedirectLocations.of(origin.baseUrl(), config.origin().rewriteLocation());
        RouterConfig.Forward f = config.forward();
        ForwardSettings guards = problems.check(FORWARD, () -> new ForwardSettings(f.timeout(), f.maxRetries(),
                f.retryDelay(), f.breaker().requestVolumeThreshold(), f.breaker().failureRatio(), f.breaker().delay(),
                f.maxCandidates(), f.bulkhead().maxInFlight(), f.bulkhead().maxWaiting()));
        ForwardEndpointSettings forward = forward(f, httpPort, problems);
        HotKeySettings hot = problems.check(HOT_KEYS, () -> {
            RouterConfig.HotKeys h = config.hotKeys();
            HotKeys.check(h.top(), h.minRequests(), h.window());
            return new HotKeySettings(h.top(), h.minRequests(), h.window());
        });
        NearCacheSettings near = problems.check(NEAR_CACHE, () -> {
            RouterConfig.NearCache n = config.nearCache();
            long bytes = positiveLong(n.maxBytes(), "16M", ".max-bytes: ");
            NearCache.check(bytes, n.ttl());
            return new NearCacheSettings(n.enabled(), bytes, n.ttl());
        });
        LoadSettings load = problems.check(LoadSettings.KEY, () -> LoadSettings.OFF.withWindow(config.boundedLoad().window(),
                config.boundedLoad().minRate()));
        CacheSettings cache = problems.check(CACHE, () -> cache(config.cache()));
        Integer maxVariants = problems.check(CACHE + ".max-variants", () -> {
            LocalCache.checkMaxVariants(config.cache().maxVariants());
            return config.cache().maxVariants();
        });
        ProxySettings proxy = proxy(config, problems);
        PurgeSettings purge = problems.check(PREFIX + "purge", () -> new PurgeSettings(config.purge().timeout(),
                config.purge().missingFor(), config.purge().exposeTags()));
        problems.throwIfAny();
        return new RouterSettings(cacheMaxBytes, maxBufferedBytes, maxInFlight, origin, redirects, forward, guards, hot, near,
                load, cache, maxVariants, proxy, purge);
    }

    /** The policy's settings from {@code ketama.router.cache.*}. */
    private static CacheSettings cache(RouterConfig.Cache c) {
        long year = Duration.ofDays(365).toMillis();
        long defaultTtl = durationWithin(".default-ttl", c.defaultTtl(), year);
        long heuristicMax = durationWithin(".heuristic-max", c.heuristicMax(), year);
        long staleIfError = durationWithin(".stale-if-error", c.staleIfError(), year);
        if (c.heuristicPercent() < 0 || c.heuristicPercent() > 100) {
            throw new IllegalArgumentException(".heuristic-percent: must be 0 to 100, was " + c.heuristicPercent());
        }
        if (c.maxVaryFields() < 1 || c.maxVaryFields() > 1000) {
            throw new IllegalArgumentException(".max-vary-fields: must be 1 to 1000, was " + c.maxVaryFields());
        }
        List<String> targeted = new ArrayList<>();
        for (String field : c.targetedFields()) {
            String name = field.trim();
            if (name.equalsIgnoreCase(NONE) || name.isEmpty()) {
                continue;
            }
            if (!FieldNames.isToken(name)) {
                throw new IllegalArgumentException(".targeted-fields: '" + name + "' is not a field name (a token: letters, "
                        + "digits and !#$%&'*+-.^_`|~), e.g. CDN-Cache-Control, or none");
            }
            targeted.add(name);
        }
        return new CacheSettings(defaultTtl, c.heuristicPercent(), heuristicMax, c.storeSetCookie(), staleIfError,
                c.maxVaryFields(), List.copyOf(targeted));
    }

    private static long durationWithin(String key, Duration value, long maxMillis) {
        if (value.isNegative() || value.toMillis() > maxMillis) {
            throw new IllegalArgumentException(key + ": must be 0 to 365 days, e.g. 60s, was " + value);
        }
        return value.toMillis();
    }

    /** {@code ketama.router.proxy.*} and the key template, each invalid key named in {@code problems}. */
    private static ProxySettings proxy(RouterConfig config, Problems problems) {
        RouterConfig.Proxy p = config.proxy();
        KeyTemplate key = problems.check(CACHE + ".key", () -> KeyTemplate.parse(config.cache().key()));
        String via = problems.check(PROXY + ".via", () -> {
            String name = p.via().trim();
            if (!FieldNames.isToken(name)) {
                throw new IllegalArgumentException("must be a token (letters, digits and !#$%&'*+-.^_`|~), e.g. ketama-router; "
                        + "was '" + p.via() + "'");
            }
            return "1.1 " + name;
        });
        List<String> strip = problems.check(PROXY + ".strip-request-fields", () -> {
            List<String> names = new ArrayList<>();
            for (String field : p.stripRequestFields()) {
                String name = field.trim();
                if (name.equalsIgnoreCase(NONE) || name.isEmpty()) {
                    continue;
                }
                if (!FieldNames.isToken(name)) {
                    throw new IllegalArgumentException("'" + name + "' is not a field name (a token), e.g. X-Forwarded-Host, or none");
                }
                names.add(name);
            }
            return List.copyOf(names);
        });
        Integer body = problems.check(PROXY + ".max-request-body-bytes", () -> {
            BigInteger bytes = p.maxRequestBodyBytes().asBigInteger();
            if (bytes.signum() < 0 || bytes.compareTo(BigInteger.valueOf(MAX_REQUEST_BODY_BYTES)) > 0) {
                throw new IllegalArgumentException("must be 0 to " + MAX_REQUEST_BODY_BYTES + " bytes (256 MiB), e.g. 1M; was " + bytes);
            }
            return bytes.intValueExact();
        });
        return key == null || via == null || strip == null || body == null ? null : new ProxySettings(key, strip, via, body);
    }

    private static OriginSettings origin(RouterConfig.Origin config, int maxBodyBytes) {
        Optional<String> baseUrl = config.baseUrl().map(String::trim).filter(url -> !url.isEmpty());
        if (baseUrl.isPresent()) {
            try {
                HttpOrigin.check(baseUrl.get(), config.timeout(), config.maxConnections());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(".base-url / .timeout / .max-connections: " + e.getMessage(), e);
            }
        } else {
            try {
                DemoOrigin.check(config.demoDelay());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(".demo-delay: " + e.getMessage(), e);
            }
        }
        try {
            BoundedOrigin.check(config.maxInFlight());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(".max-in-flight: " + e.getMessage(), e);
        }
        if (config.demoMaxAge().isNegative()) {
            throw new IllegalArgumentException(".demo-max-age: must be at least 0, e.g. 1h; was " + config.demoMaxAge());
        }
        BigInteger headerBytes = config.maxHeaderBytes().asBigInteger();
        if (headerBytes.compareTo(BigInteger.valueOf(1024)) < 0 || headerBytes.compareTo(BigInteger.valueOf(1024 * 1024)) > 0) {
            throw new IllegalArgumentException(".max-header-bytes: must be 1K to 1M, e.g. 16K; was " + headerBytes);
        }
        return new OriginSettings(baseUrl, config.demoDelay(), config.timeout(), config.maxConnections(), config.maxInFlight(),
                maxBodyBytes, headerBytes.intValueExact(), config.demoMaxAge());
    }

    private static ForwardEndpointSettings forward(RouterConfig.Forward f, int httpPort, Problems problems) {
        if (f.transport() == TransportKind.HTTP && httpPort == 0) {
            problems.add(FORWARD + ".transport: http forwards to each member's own HTTP port, which the others learn when "
                    + "it joins: give quarkus.http.port a fixed value, not 0 (or use the binary transport)");
        }
        if (f.transport() == TransportKind.HTTP) {
            problems.check(FORWARD, () -> {
                HttpForwardClient.checkMaxConnections(f.http().maxConnections());
                return null;
            });
        }
        problems.check(FORWARD, () -> {
            HazelcastForwarding.check(f.hazelcast().threads(), f.hazelcast().queueCapacity());
            return null;
        });
        ForwardSecret secret = problems.check(FORWARD + ".secret", () -> ForwardSecret.of(f.secret()));
        RouterConfig.Forward.Binary b = f.binary();
        if (b.port() < 0 || b.port() > 65_535) {
            problems.add(FORWARD + ".binary.port: must be in 0..65535 (0: any free port), was " + b.port());
        }
        return new ForwardEndpointSettings(f.transport(), f.timeout(), f.http().maxConnections(), secret, b.host(), b.port(),
                f.hazelcast().threads(), f.hazelcast().queueCapacity());
    }

    /**
     * {@code ketama.router.cache.max-bytes} checked: 1 byte to {@link Long#MAX_VALUE}. Read as the
     * {@link BigInteger} it is: a size past a long ({@code 1Z}, {@code 9999999999G}) is refused
     * naming the key, not an {@link ArithmeticException} from {@link MemorySize#asLongValue}.
     *
     * @throws IllegalArgumentException naming the key, the value and the allowed range
     */
    static long cacheMaxBytes(MemorySize configured) {
        return named(CACHE_MAX_BYTES, () -> positiveLong(configured, "64M", ""));
    }

    /**
     * {@code ketama.router.origin.max-body-bytes} checked: 1 to {@link BinaryForwardServer#MAX_BODY_BYTES},
     * so no answer a member serves can make a binary frame past the channel's limit. Read as the
     * {@link BigInteger} it is, so a size past a long is refused like any other too large.
     *
     * @throws IllegalArgumentException naming the key, the value and the allowed range
     */
    static int maxBodyBytes(MemorySize configured) {
        return named(MAX_BODY_BYTES, () -> {
            BigInteger bytes = configured.asBigInteger();
            if (bytes.signum() < 1 || bytes.compareTo(BigInteger.valueOf(BinaryForwardServer.MAX_BODY_BYTES)) > 0) {
                throw new IllegalArgumentException("must be 1 to " + BinaryForwardServer.MAX_BODY_BYTES + " bytes (the binary "
                        + "forward channel's largest frame, 256 MiB, less 256 KiB for the rest of a reply), e.g. 16M; was " + bytes);
            }
            return bytes.intValueExact();
        });
    }

    /**
     * {@code ketama.router.admission.max-buffered-bytes} checked: at least {@code maxBodyBytes} (so one
     * body of the largest size fits); unset, {@link BodyBudget#defaultBytes}.
     *
     * @throws IllegalArgumentException naming the key, the value and the allowed range
     */
    static long maxBufferedBytes(Optional<MemorySize> configured, int maxBodyBytes) {
        return named(BodyBudget.KEY, () -> {
            if (configured.isEmpty()) {
                return BodyBudget.defaultBytes(maxBodyBytes);
            }
            BigInteger bytes = configured.get().asBigInteger();
            if (bytes.compareTo(BigInteger.valueOf(maxBodyBytes)) < 0 || bytes.bitLength() > 63) {
                throw new IllegalArgumentException("must be " + maxBodyBytes + " to " + Long.MAX_VALUE + " bytes (at least "
                        + MAX_BODY_BYTES + ", so one body of the largest size fits), e.g. 128M, or unset for a "
                        + "quarter of the heap; was " + bytes);
            }
            return bytes.longValue();
        });
    }

    private static long positiveLong(MemorySize configured, String example, String prefix) {
        BigInteger bytes = configured.asBigInteger();
        if (bytes.signum() < 1 || bytes.bitLength() > 63) {
            throw new IllegalArgumentException(prefix + "must be 1 to " + Long.MAX_VALUE + " bytes, e.g. " + example + "; was "
                    + bytes);
        }
        return bytes.longValue();
    }

    /** Runs a check and names the configuration key in its complaint. */
    private static <T> T named(String key, Supplier<T> check) {
        try {
            return check.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(line(key, e.getMessage()), e);
        }
    }

    /**
     * {@code invalid configuration <key>: <message>}; a message that starts with {@code .} names a
     * key below {@code key} ({@code .top: ...}), and one that names its key already is kept as it is.
     */
    private static String line(String key, String message) {
        if (message.startsWith("invalid configuration ")) {
            return message;
        }
        return "invalid configuration " + key + (message.startsWith(".") ? "" : ": ") + message;
    }

    /** The invalid keys found so far, one line each. */
    private static final class Problems {
        private final List<String> lines = new ArrayList<>();
        private IllegalArgumentException first;

        /** {@code check}'s value, or null when it failed (then its line is kept). */
        <T> T check(String key, Supplier<T> check) {
            try {
                return check.get();
            } catch (IllegalArgumentException e) {
                lines.add(line(key, e.getMessage()));
                if (first == null) {
                    first = e;
                }
                return null;
            }
        }

        void add(String keyAndMessage) {
            lines.add("invalid configuration " + keyAndMessage);
        }

        void throwIfAny() {
            if (lines.isEmpty()) {
                return;
            }
            String message = lines.size() == 1 ? lines.get(0)
                    : lines.size() + " invalid configuration keys:\n  " + String.join("\n  ", lines);
            throw new IllegalArgumentException(message, first);
        }
    }
}
