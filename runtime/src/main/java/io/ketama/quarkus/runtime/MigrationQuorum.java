package io.ketama.quarkus.runtime;

import io.ketama.quarkus.MigrationQuorumException;
import io.ketama.quarkus.MigrationState;

import com.hazelcast.cluster.Member;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How many members a change of the cluster's migration state needs before it is acknowledged:
 * {@code quarkus.ketama.migration.min-members}, {@code m}.
 *
 * <h2>Why</h2>
 * During a network partition both sides of the cluster keep running, each with its own copy of
 * the state, until the failure detector drops the other side (seconds); after the heal Hazelcast
 * merges the smaller side into the larger, and the larger side's state is the one kept
 * ({@link ClusterMigration}, "Loss and merge"). A change acknowledged on the smaller side would be
 * lost. With {@code m} a majority of the cluster's members ({@code ⌊n/2⌋ + 1}, e.g. 3 of 5) at
 * most one side can reach {@code m}, and that side is the larger, so an acknowledged change
 * survives the merge.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Before writing</b> ({@link #requireMembers}): refused, nothing written, when this member
 *       sees fewer than {@code m} members. That is the case on the smaller side once the failure
 *       detector has dropped the other one.</li>
 *   <li><b>After writing</b> ({@link #awaitConfirmed}): acknowledged only once at least {@code m}
 *       members say on their board entry that they apply the new generation (or a later one),
 *       within {@link #CONFIRM_TIMEOUT}. That covers the seconds before the failure detector acts,
 *       when a cut-off member still lists everyone: the members across the cut can neither read the
 *       new state nor be read, so they do not confirm, and the change is answered as unconfirmed.</li>
 *   <li>With {@code m = 1} (the default, a cluster of one) neither check runs: every change is
 *       acknowledged at once, and one made on the smaller side of a split is lost when the two sides
 *       both changed the state.</li>
 * </ul>
 */
final class MigrationQuorum {

    /** No check: every change is acknowledged once stored. */
    static final MigrationQuorum NONE = new MigrationQuorum(1, java.util.List::of, members -> Map.of());
    /** Longest wait for the members' confirmations of a change. */
    static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(5);
    private static final long POLL_MILLIS = 25;

    private final int minMembers;
    private final Supplier<Collection<Member>> members;
    private final Function<Collection<Member>, Map<UUID, Long>> appliedGenerations;

    /**
     * @param members            the cluster's members as this member sees them now
     * @param appliedGenerations the migration generation each of {@code members} says it applies
     *                           (a bounded remote read); members that say nothing are absent
     */
    MigrationQuorum(int minMembers, Supplier<Collection<Member>> members,
                    Function<Collection<Member>, Map<UUID, Long>> appliedGenerations) {
        if (minMembers < 1) {
            throw new IllegalArgumentException("min-members must be >= 1, was " + minMembers);
        }
        this.minMembers = minMembers;
        this.members = Objects.requireNonNull(members, "members");
        this.appliedGenerations = Objects.requireNonNull(appliedGenerations, "appliedGenerations");
    }

    int minMembers() {
        return minMembers;
    }

    /**
     * @throws MigrationQuorumException when this member sees fewer than {@code m} members
     */
    void requireMembers() {
        if (minMembers > 1) {
            int seen = members.get().size();
            if (seen < minMembers) {
                throw MigrationQuorumException.tooFewMembers(seen, minMembers);
            }
        }
    }

    /** Whether this member sees at least {@code m} members now. */
    boolean hasMembers() {
        return minMembers <= 1 || members.get().size() >= minMembers;
    }

    /**
     * Waits until {@code m} members say they apply {@code made} (or later), at most
     * {@link #CONFIRM_TIMEOUT}.
     *
     * @throws MigrationQuorumException when they did not in time
     */
    void awaitConfirmed(MigrationState made) throws InterruptedException {
        if (minMembers <= 1) {
            return;
        }
        long start = System.nanoTime();
        long deadline = start + CONFIRM_TIMEOUT.toNanos();
        int confirmed;
        while (true) {
            confirmed = confirmations(made.generation());
            if (confirmed >= minMembers) {
                return;
            }
            if (System.nanoTime() >= deadline) {
                break;
            }
            Thread.sleep(POLL_MILLIS);
        }
        throw MigrationQuorumException.unconfirmed(made, confirmed, minMembers, (System.nanoTime() - start) / 1_000_000);
    }

    /** How many members say they apply {@code generation} or a later one. */
    private int confirmations(long generation) {
        int n = 0;
        for (long applied : appliedGenerations.apply(members.get()).values()) {
            if (applied >= generation) {
                n++;
            }
        }
        return n;
    }
}
