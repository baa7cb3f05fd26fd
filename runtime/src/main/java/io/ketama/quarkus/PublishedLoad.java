package io.ketama.quarkus;

import com.hazelcast.cluster.Member;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * The load each member published on the cluster's load board ({@link LoadBoardEntry}), as one
 * process last read it: answers a second, rounded, per member UUID. A member without a fresh entry
 * (none written, or its sequence stood still for a few reads) carries 0. It is what
 * {@link RingSelector#selectBounded(String, java.util.Set)} weighs candidates by, so every process that
 * read the same board (member or client) chooses the same member for a key.
 *
 * @param loads answers a second each member with a fresh entry served in its last window, by its UUID
 * @param total the sum of {@code loads}
 */
public record PublishedLoad(Map<UUID, Long> loads, long total) {

    /** Nothing read (no board, or none of it fresh). */
    public static final PublishedLoad NONE = new PublishedLoad(Map.of());

    public PublishedLoad {
        loads = Map.copyOf(loads);
        long sum = 0;
        for (long l : loads.values()) {
            if (l < 0) {
                throw new IllegalArgumentException("a published load is 0 or more; was " + loads);
            }
            sum += l;
        }
        if (sum != total) {
            throw new IllegalArgumentException("total " + total + " is not the sum of the loads, " + sum);
        }
    }

    public PublishedLoad(Map<UUID, Long> loads) {
        this(loads, loads.values().stream().mapToLong(Long::longValue).sum());
    }

    /** What {@code member} carries: its published answers a second, 0 without a fresh entry. */
    public long load(Member member) {
        Long l = loads.get(Objects.requireNonNull(member, "member").getUuid());
        return l == null ? 0 : l;
    }
}
