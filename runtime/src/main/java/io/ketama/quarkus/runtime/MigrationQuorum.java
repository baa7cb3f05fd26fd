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
 * How many members a change of the cluster's migration state needs before it is acknowledged: a
 * majority of the members the cluster expects, learned from the cluster itself
 * ({@link ClusterRoster}), or {@code quarkus.ketama.migration.min-members}, {@code m}, when set.
 *
 * <h2>Why</h2>
 * During a network partition both sides of the cluster keep running, each with its own copy of
 * the state, until the failure detector drops the other side (seconds); after the heal Hazelcast
 * merges the smaller side into the larger, and the larger side's state is the one kept
 * ({@link ClusterMigration}, "Loss and merge"). A change acknowledged on the smaller side would be
 * lost. With a majority required at most one side can reach it, and that side is the larger, so an
 * acknowledged change survives the merge.
 *
 * <h2>The quorum {@code q}</h2>
 * <ul>
 *   <li><b>Learned</b> (no {@code min-members} set, the default): {@code E} is the number of members
 *       the cluster expects ({@link ExpectedMembers}: every member that joined, less those that left
 *       by a graceful stop; a member dropped by failure still counts until it returns, is removed by
 *       an operator, or has been missing for {@code forget-failed-after}), and
 *       {@code q = ⌊E/2⌋ + 1}: 1 of 1, 2 of 2, 2 of 3, 3 of 4, 3 of 5, 4 of 7. The members seen,
 *       {@code s}, are the expected members in the cluster as this member sees it now; only they
 *       confirm. The two sides of a split hold disjoint parts of the {@code E} members, so at most one
 *       reaches {@code q}: cut 5 into 3 + 2 and the 3 change the state (3 ≥ 3), the 2 cannot (2 &lt; 3).
 *       A cluster of one member ({@code E = 1}, {@code q = 1}) changes its state at once; three members
 *       scaled down gracefully to one ({@code E} 3 → 2 → 1) likewise; three members of which two
 *       crashed ({@code E = 3}, {@code s = 1 < 2}) refuse until they return or are removed.</li>
 *   <li><b>Explicit</b> ({@code min-members} set): {@code q = m}, and {@code s} is every member of the
 *       cluster this member sees (as before the learned quorum); {@code m} wins over {@code E}.</li>
 * </ul>
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Before writing</b> ({@link #requireMembers}): refused, nothing written, when
 *       {@code s < q}. That is the case on the smaller side once the failure detector has dropped the
 *       other one; with the learned quorum, also on a side left with a minority of the expected
 *       members for any other reason (the others crashed).</li>
 *   <li><b>After writing</b> ({@link #awaitConfirmed}): acknowledged only once at least {@code q}
 *       members (expected ones, when learned) say on their board entry that they apply the new
 *       generation (or a later one), within {@link #CONFIRM_TIMEOUT}. That covers the seconds before
 *       the failure detector acts, when a cut-off member still lists everyone: the members across the
 *       cut can neither read the new state nor be read, so they do not confirm, and the change is
 *       answered as unconfirmed.</li>
 *   <li>With {@code q = 1} neither check runs: every change is acknowledged at once.</li>
 *   <li>Nothing here reads remotely before writing: {@code E} is the expected members as this member
 *       last heard them, {@code s} its own view of the cluster.</li>
 * </ul>
 *
 * <p><b>Limits of the learned quorum.</b> Members that join the smaller side during a split count
 * there: should so many join it that it holds a majority of its own list, both sides could change the
 * state. A member missing for longer than {@code forget-failed-after} stops counting on the side that
 * misses it, so a split that lasts longer than that leaves each side free to change the state alone.
 */
final class MigrationQuorum {

    /** No check: every change is acknowledged once stored. */
    static final MigrationQuorum NONE = new MigrationQuorum(1, java.util.List::of, members -> Map.of());
    /** Longest wait for the members' confirmations of a change. */
    static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(5);
    private static final long POLL_MILLIS = 25;

    /** {@code m}, or 0 when the quorum is learned. */
    private final int minMembers;
    private final Supplier<ExpectedMembers> expected;
    private final Supplier<Collection<Member>> members;
    private final Function<Collection<Member>, Map<UUID, Long>> appliedGenerations;

    /**
     * Where a change stands now.
     *
     * @param learned  whether {@code q} is learned ({@code min-members} not set)
     * @param expected {@code E}, the members the cluster expects
     * @param seen     {@code s}, the members that count as seen (see the class)
     * @param required {@code q}
     */
    record Status(boolean learned, int expected, int seen, int required) {

        /** Whether a change would be refused now, nothing written ({@code s < q}). */
        boolean refusing() {
            return required > 1 && seen < required;
        }
    }

    /**
     * An explicit quorum: {@code min-members} {@code m}.
     *
     * @param members            the cluster's members as this member sees them now
     * @param appliedGenerations the migration generation each of {@code members} says it applies
     *                           (a bounded remote read); members that say nothing are absent
     */
    MigrationQuorum(int minMembers, Supplier<Collection<Member>> members,
                    Function<Collection<Member>, Map<UUID, Long>> appliedGenerations) {
        this(minMembers, () -> ExpectedMembers.NONE, members, appliedGenerations);
        if (minMembers < 1) {
            throw new IllegalArgumentException("min-members must be >= 1, was " + minMembers);
        }
    }

    private MigrationQuorum(int minMembers, Supplier<ExpectedMembers> expected, Supplier<Collection<Member>> members,
                            Function<Collection<Member>, Map<UUID, Long>> appliedGenerations) {
        this.minMembers = minMembers;
        this.expected = Objects.requireNonNull(expected, "expected");
        this.members = Objects.requireNonNull(members, "members");
        this.appliedGenerations = Objects.requireNonNull(appliedGenerations, "appliedGenerations");
    }

    /**
     * The learned quorum: a majority of {@code expected}, the cluster's expected members as this
     * member knows them ({@link ClusterRoster#current}).
     */
    static MigrationQuorum learned(Supplier<ExpectedMembers> expected, Supplier<Collection<Member>> members,
                                   Function<Collection<Member>, Map<UUID, Long>> appliedGenerations) {
        return new MigrationQuorum(0, expected, members, appliedGenerations);
    }

    /** An explicit quorum of {@code minMembers} that also shows {@code expected} (not counted). */
    static MigrationQuorum explicit(int minMembers, Supplier<ExpectedMembers> expected, Supplier<Collection<Member>> members,
                                    Function<Collection<Member>, Map<UUID, Long>> appliedGenerations) {
        if (minMembers < 1) {
            throw new IllegalArgumentException("min-members must be >= 1, was " + minMembers);
        }
        return new MigrationQuorum(minMembers, expected, members, appliedGenerations);
    }

    /** {@code q = ⌊E/2⌋ + 1}, and 1 for a cluster that expects nobody yet. */
    static int majority(int expected) {
        return expected / 2 + 1;
    }

    /** Where a change stands now; no remote call. */
    Status status() {
        ExpectedMembers list = expected.get();
        Collection<Member> now = members.get();
        if (minMembers > 0) {
            return new Status(false, list.size(), now.size(), minMembers);
        }
        return new Status(true, list.size(), list.seen(ClusterRoster.present(now)), majority(list.size()));
    }

    /** {@code q} now. */
    int required() {
        return status().required();
    }

    /**
     * @throws MigrationQuorumException when this member sees fewer than {@code q} members
     */
    void requireMembers() {
        Status s = status();
        if (s.refusing()) {
            throw s.learned() ? MigrationQuorumException.tooFewExpected(s.seen(), s.expected(), s.required())
                    : MigrationQuorumException.tooFewMembers(s.seen(), s.required());
        }
    }

    /** Whether this member sees at least {@code q} members now. */
    boolean hasMembers() {
        return !status().refusing();
    }

    /**
     * Waits until {@code q} members say they apply {@code made} (or later), at most
     * {@link #CONFIRM_TIMEOUT}.
     *
     * @throws MigrationQuorumException when they did not in time
     */
    void awaitConfirmed(MigrationState made) throws InterruptedException {
        Status s = status();
        if (s.required() <= 1) {
            return;
        }
        long start = System.nanoTime();
        long deadline = start + CONFIRM_TIMEOUT.toNanos();
        int confirmed;
        int required;
        while (true) {
            required = status().required();
            confirmed = confirmations(made.generation());
            if (confirmed >= required) {
                return;
            }
            if (System.nanoTime() >= deadline) {
                break;
            }
            Thread.sleep(POLL_MILLIS);
        }
        throw MigrationQuorumException.unconfirmed(made, confirmed, required, (System.nanoTime() - start) / 1_000_000,
                s.learned());
    }

    /** How many members (expected ones, when learned) say they apply {@code generation} or a later one. */
    private int confirmations(long generation) {
        Collection<Member> now = members.get();
        ExpectedMembers list = minMembers > 0 ? null : expected.get();
        Map<UUID, Long> applied = appliedGenerations.apply(now);
        java.util.Set<String> counted = new java.util.HashSet<>();
        int n = 0;
        for (Member m : now) {
            Long g = applied.get(m.getUuid());
            if (g == null || g < generation) {
                continue;
            }
            if (list == null) {
                n++;
            } else if (list.contains(ClusterRoster.identity(m)) && counted.add(ClusterRoster.identity(m))) {
                n++; // one confirmation per expected member, however many members share its identity
            }
        }
        return n;
    }
}
