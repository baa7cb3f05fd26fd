package io.ketama.router.purge;

import io.ketama.router.hot.NearCache;
import io.ketama.router.serving.LocalCache;
import java.util.Collection;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * A purge as one member applies it: its stored answers of the keys and tags (whether it holds them as
 * their owner, a spill candidate or a former owner: the store does not tell them apart), then its near
 * copies. Found by other members' {@link HazelcastPurgeTask}s in Hazelcast's user context.
 */
public final class MemberPurge {

    public static final String USER_CONTEXT_KEY = "io.ketama.router.purge.MemberPurge";

    private final LocalCache cache;
    /** Null: no near copies. */
    private final NearCache near;
    private final LongAdder applied = new LongAdder();
    private final LongAdder dropped = new LongAdder();

    public MemberPurge(LocalCache cache, NearCache near) {
        this.cache = Objects.requireNonNull(cache, "cache");
        this.near = near;
    }

    /**
     * Drops what this member holds of {@code keys} and {@code tags}; the fetches under way for them
     * store nothing ({@link io.ketama.router.serving.PurgeMarks}).
     *
     * @return the stored answers and near copies dropped
     */
    public int apply(Collection<String> keys, Set<String> tags) {
        if (tags.contains(ClusterPurge.Everything.TAG)) {
            cache.marks().fence("it missed more purges than a member sends again by name");
            applied.increment();
            return 0;
        }
        int d = cache.purge(keys, tags);
        if (near != null) {
            d += near.purge(keys, tags);
        }
        applied.increment();
        dropped.add(d);
        return d;
    }

    /** Purges applied here so far (this member's own and others'). */
    public long applied() {
        return applied.sum();
    }

    /** Stored answers and near copies dropped by purges here so far. */
    public long dropped() {
        return dropped.sum();
    }
}
