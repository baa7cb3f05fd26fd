package io.ketama.router.load;

import java.time.Duration;
import java.util.Objects;

/**
 * How this member enforces bounded loads ({@link OwnerLoad}): whether it spills at all, the balance
 * factor, the window its load is counted and published in, and the rate below which it never spills.
 *
 * @param enabled whether this member, as owner, spills requests past its bound; off, it still counts
 *                and publishes its load (the others' mean stays right) and serves everything
 * @param factor  the balance factor {@code c} ({@code quarkus.ketama.bounded-load.factor}): a member of
 *                weight {@code w} serves at most {@code ⌈c · (L·Δ + 1) · w / W⌉} requests a window
 * @param window  {@code Δ}: the window a member counts what it serves in, and publishes it after; 10 ms to 10 s
 * @param minRate requests a second a member may always serve, whatever the mean: below it nothing
 *                spills (the count of a quiet window is mostly chance); 0 to 10,000,000
 */
public record LoadSettings(boolean enabled, double factor, Duration window, long minRate) {

    /** The service's keys of these settings, for messages: {@code KEY + ".window"}, {@code KEY + ".min-rate"}. */
    public static final String KEY = "ketama.router.bounded-load";
    public static final Duration MIN_WINDOW = Duration.ofMillis(10);
    public static final Duration MAX_WINDOW = Duration.ofSeconds(10);
    public static final long MAX_MIN_RATE = 10_000_000;

    /** Off: counts, publishes, never spills (a plain member in a test, the extension's default). */
    public static final LoadSettings OFF = new LoadSettings(false, 1.25, Duration.ofMillis(500), 200);

    public LoadSettings {
        Objects.requireNonNull(window, "window");
        if (!(factor > 1.0 && factor <= 100.0)) {
            throw new IllegalArgumentException("invalid configuration quarkus.ketama.bounded-load.factor: must be above 1.0 and "
                    + "at most 100; was " + factor);
        }
        if (window.compareTo(MIN_WINDOW) < 0 || window.compareTo(MAX_WINDOW) > 0) {
            throw new IllegalArgumentException(".window: must be " + MIN_WINDOW.toMillis() + " ms to "
                    + MAX_WINDOW.toSeconds() + " s, e.g. 500ms; was " + window);
        }
        if (minRate < 0 || minRate > MAX_MIN_RATE) {
            throw new IllegalArgumentException(".min-rate: must be 0 to " + MAX_MIN_RATE
                    + " requests a second, e.g. 200; was " + minRate);
        }
    }

    /** These settings with another window and floor ({@code ketama.router.bounded-load.*}), checked. */
    public LoadSettings withWindow(Duration window, long minRate) {
        return new LoadSettings(enabled, factor, window, minRate);
    }

    /** These settings with the extension's switch and factor ({@code quarkus.ketama.bounded-load.*}), checked. */
    public LoadSettings switched(boolean enabled, double factor) {
        return new LoadSettings(enabled, factor, window, minRate);
    }

    /** {@link #minRate} as requests a window, rounded up. */
    long minPerWindow() {
        return (long) Math.ceil(minRate * (window.toNanos() / 1e9));
    }
}
