package io.ketama.router.load;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

/**
 * This member's load as a key's server, and the bound it holds it to: consistent hashing with
 * bounded loads (Mirrokni, Thorup, Zadimoghaddam) enforced for the whole cluster's load, counting the
 * requests of every entry member, not only this one's.
 *
 * <h2>Why the owner decides</h2>
 * Every member is an entry point, so an entry sees about {@code 1/N} of any key's requests: a bound
 * that each entry applies to what it sends (HAProxy's {@code hash-balance-factor}, Envoy's
 * {@code hash_balance_factor}) lets {@code N} entries together put {@code N} times the bound on one
 * owner. Only the member that serves a key sees all of that key's requests, whichever member they
 * entered by. So the bound is held where the requests meet: each member counts what it serves in
 * windows of {@code Δ} ({@code ketama.router.bounded-load.window}, 500 ms), admits a request while
 * the window's count is under its bound, and answers past it "spill" (a small failure frame, no
 * body) to the entry that sent it, which sends the key on to the key's next candidate.
 *
 * <h2>The bound</h2>
 * What counts as load is an answer this member serves as a key's candidate, from its cache or its
 * origin: a key it owns that entered here, or one another member forwarded. A near copy served by
 * the entry ({@code NEAR}) is not: entries are as even as the clients that use them. After each
 * window every member publishes its served rate and its ring weight on the {@link LoadBoard} (a
 * Hazelcast replicated map: local reads, asynchronous replication, nothing on the request path), and
 * from the fresh entries each member reads the cluster's rate {@code L} (requests a second, all
 * members) and the weight {@code W} of the members on the rings. In the next window a member of
 * weight {@code w} serves at most
 * <pre>    hard = max(⌈c · (L·Δ + 1) · w / W⌉, ⌈minRate · Δ⌉)</pre>
 * requests ({@code c} = {@code quarkus.ketama.bounded-load.factor}: {@code BoundedLoads}'s bound, per
 * window). At 8 members of weight 1, {@code L} = 4,000/s, {@code Δ} = 0.5 s, {@code c} = 1.25: the mean
 * member serves 250 a window and the bound is {@code ⌈1.25 × 2,001 / 8⌉} = 313. Weights count: a
 * member of weight 2 may serve twice that. {@code minRate} ({@code ketama.router.bounded-load.min-rate},
 * 200/s) keeps a quiet member from spilling for chance alone: at a mean of 20 a window, Poisson noise
 * passes 1.25 × the mean in a window in one of ten.
 *
 * <h2>Hot keys spill first</h2>
 * Past {@code soft}, the midpoint between the mean share ({@code hard / c}) and {@code hard}, a request
 * for one of this member's heavy hitters ({@code hot}: the keys its sketch counts as the heaviest,
 * see {@code HotKeys}) spills; any other spills only past {@code hard}. Skew comes from a few keys, so
 * an owner over its bound sheds those, and they land on one next member, where they are cached once
 * and stay hot; its cold keys stay cached where they are (a spilled cold key would cost one origin
 * fetch on the next member).
 *
 * <h2>Where a spilled request goes, and why it spills once</h2>
 * The entry sends a spilled request to the key's next distinct candidate in the selection it
 * routed with (the same ring version, the same feature ring: {@code FailoverChain}), skipping a
 * candidate the board shows at or past its bound unless it is the last one allowed
 * ({@code ketama.router.forward.max-candidates}). That request is <em>final</em>: it is never spilled
 * again, whoever gets it serves it (and counts it). So a request takes at most two hops and overflow
 * never cascades along one key's candidates; a member that final requests push past its soft bound
 * sheds its own spillable requests (its own hot keys first) to their own next members instead, so the
 * overflow spreads through every member's admission rather than down one chain. Failing over after a
 * failure is not a spill: the next candidate gets a final request too.
 *
 * <h2>Cost</h2>
 * {@link #admit} reads the window's {@link LongAdder} and adds one to it; past {@code soft} it also
 * asks whether the key is hot (a scan of a few dozen hashes). No lock, no allocation. The mean lags by
 * one window: when the load rises, a bound is briefly too low (more spills than needed, never a
 * member over its bound); two requests admitted at once can both pass the last place below the bound
 * (one over). A member without a bound yet (alone, or the board not read) admits everything.
 *
 * <p>Thread-safe: event loops call {@link #admit} and {@link #serve}; the board's thread rolls the
 * window and sets the bound.
 */
public final class OwnerLoad {

    /** A bound that never refuses. */
    static final long UNBOUNDED = Long.MAX_VALUE;

    private static final Bound NONE = new Bound(UNBOUNDED, UNBOUNDED);

    /** A window's bound: {@code hard} for any key, {@code soft} for a hot one. */
    record Bound(long hard, long soft) {
        Bound {
            if (soft > hard) {
                throw new IllegalArgumentException("soft bound " + soft + " above hard bound " + hard);
            }
        }
    }

    private final LoadSettings settings;
    private final Predicate<String> hot;
    /** What this member served in the window under way. */
    private final LongAdder current = new LongAdder();
    private final LongAdder spilled = new LongAdder();
    private volatile Bound bound = NONE;
    /** Served before the window under way (summed at each roll: the board's thread only writes it). */
    private volatile long servedBefore;

    /**
     * @param hot whether a key is one of this member's heaviest (called only past the soft bound);
     *            null: no key is
     */
    public OwnerLoad(LoadSettings settings, Predicate<String> hot) {
        this.settings = java.util.Objects.requireNonNull(settings, "settings");
        this.hot = hot == null ? key -> false : hot;
    }

    /** Counts what it serves and admits everything: a member that spills nothing. */
    public static OwnerLoad unbounded() {
        return new OwnerLoad(LoadSettings.OFF, null);
    }

    public LoadSettings settings() {
        return settings;
    }

    /**
     * A request the sender lets this member spill: counted and admitted while this window's count is
     * under the bound (under the soft bound for a hot key), else refused and not counted.
     *
     * @return whether to serve it; false: answer "spilled"
     */
    public boolean admit(String key) {
        Bound b = bound;
        if (b.hard != UNBOUNDED) {
            long n = current.sum();
            if (n >= b.hard || (n >= b.soft && hot.test(key))) {
                spilled.increment();
                return false;
            }
        }
        current.increment();
        return true;
    }

    /** A request this member serves whatever its load (a final one: spilled here, or failed over): counted. */
    public void serve() {
        current.increment();
    }

    /** Ends the window under way: what was served in it (the count starts again from 0). */
    long roll() {
        long n = current.sumThenReset();
        servedBefore += n;
        return n;
    }

    /** The bound of the windows from now on (computed by the board from the cluster's load). */
    void bound(Bound next) {
        bound = next;
    }

    /** No bound until the next one is set (alone, or bounded loads off). */
    void unbound() {
        bound = NONE;
    }

    /** The hard bound of the window under way, requests a window; {@link Long#MAX_VALUE}: none. */
    public long hardBound() {
        return bound.hard;
    }

    /** The soft bound (hot keys spill past it), requests a window; {@link Long#MAX_VALUE}: none. */
    public long softBound() {
        return bound.soft;
    }

    /** Requests served in the window under way so far. */
    public long inWindow() {
        return current.sum();
    }

    /** Requests served since start-up (counted as they were served). */
    public long served() {
        return servedBefore + current.sum();
    }

    /** Requests this member, past its bound, answered "spilled" since start-up. */
    public long spilled() {
        return spilled.sum();
    }

    @Override
    public String toString() {
        Bound b = bound;
        return "OwnerLoad[" + (b.hard == UNBOUNDED ? "unbounded" : "bound " + b.hard + " (hot keys " + b.soft + ")")
                + " a window of " + settings.window().toMillis() + " ms, " + inWindow() + " so far]";
    }
}
