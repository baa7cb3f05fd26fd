package io.ketama.router;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** The service's settings, under {@code ketama.router.*} (environment: {@code KETAMA_ROUTER_…}). */
@ConfigMapping(prefix = "ketama.router")
public interface RouterConfig {

    Cache cache();

    Origin origin();

    Forward forward();

    interface Cache {
        /** Most bytes the local cache holds (keys, bodies, per-entry overhead), e.g. {@code 64M}, {@code 1G}. */
        @WithDefault("64M")
        MemorySize maxBytes();
    }

    interface Origin {
        /** Absolute http(s) base URL; key {@code k} is fetched from {@code <base-url>/<k>}. Unset: the built-in demo origin. */
        Optional<String> baseUrl();

        /** How long the demo origin takes to answer. */
        @WithDefault("20ms")
        Duration demoDelay();

        /** How long an HTTP origin may take to answer. */
        @WithDefault("5s")
        Duration timeout();
    }

    interface Forward {
        /** Time limit of one forward attempt to another member. */
        @WithDefault("2s")
        Duration timeout();

        /** Further attempts at the same member after a failed one. */
        @WithDefault("1")
        int maxRetries();

        /** Pause before a retry. */
        @WithDefault("25ms")
        Duration retryDelay();

        /** Distinct members tried for one key (owner first) before fetching from the origin directly. */
        @WithDefault("3")
        int maxCandidates();

        Breaker breaker();

        interface Breaker {
            /** Forwards in the rolling window a member's circuit breaker judges. */
            @WithDefault("4")
            int requestVolumeThreshold();

            /** Failed share of the window that opens the breaker, in (0, 1]. */
            @WithDefault("0.5")
            double failureRatio();

            /** How long an open breaker waits before letting a trial forward through. */
            @WithDefault("5s")
            Duration delay();
        }
    }
}
