package io.ketama.quarkus.runtime;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.map.IMap;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

/**
 * The cluster's expected members ({@link ExpectedMembers}), from which {@link MigrationQuorum}
 * learns the cluster's size when {@code quarkus.ketama.migration.min-members} is not set: one text
 * entry, {@value #KEY}, in the map {@value ClusterMigration#MAP}, beside the migration state.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Joined members count.</b> A member puts itself on the list when it starts
 *       ({@link #start}, before it adopts the migration state) and again whenever it finds itself
 *       missing (every {@link #RESYNC}, and at once after a merge), until it leaves.</li>
 *   <li><b>A graceful stop stops counting.</b> Its drain, or its close, takes the member off
 *       ({@link #leave}); from then on it never puts itself back.</li>
 *   <li><b>A failed member keeps counting</b> (crashed, cut off, paused past the failure timeout):
 *       nobody takes it off but the member itself. The oldest member notes since when a member is
 *       missing, and takes it off once missing for longer than {@code forgetAfter}
 *       ({@code quarkus.ketama.migration.forget-failed-after}); it is back, as there, when it
 *       returns; an operator takes it off at once ({@link #remove}: the admin plane's
 *       {@code DELETE /q/ketama/quorum?member=}), never a member that is there.</li>
 *   <li><b>One value, every member agrees.</b> Every change is a compare-and-set of the stored
 *       text, so none is lost to a concurrent one. Every member follows the entry (an entry listener,
 *       a re-read every {@link #RESYNC}, a read at once after a merge) and answers from its copy in
 *       memory ({@link #current}), so a quorum check never waits on a member that does not answer.</li>
 *   <li><b>Loss and merge.</b> The map merges as the migration state does (Hazelcast's
 *       {@code PutIfAbsent} merge policy, the default the extension keeps): after a split-brain the
 *       side Hazelcast merges into, the larger, keeps its list, and each member of the smaller side
 *       that is not on it puts itself back within {@link #RESYNC} (at once on the merge event). So
 *       the larger side's word wins on who left; the members of both sides count. A member that finds
 *       the entry gone (every copy was on members that left or were cut off) stores its own copy
 *       again, so a cut-off minority keeps counting the majority it cannot see.</li>
 *   <li><b>Unreadable.</b> A stored text that is not a list is logged once and replaced at the next
 *       change; meanwhile each member keeps the list it had.</li>
 * </ul>
 */
final class ClusterRoster implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ClusterRoster.class);

    /** The map key of the list, in {@link ClusterMigration#MAP}. */
    static final String KEY = "expected-members";
    /** How often a member re-reads the list and the oldest notes who is missing. */
    static final Duration RESYNC = Duration.ofSeconds(1);
    /** Longest wait for a change of the list made for a caller (a leave, an operator's removal). */
    static final Duration CHANGE_TIMEOUT = Duration.ofSeconds(5);
    private static final int MAX_ATTEMPTS = 50;

    private final HazelcastInstance hazelcast;
    private final Duration forgetAfter;
    private final Clock clock;
    private final FollowedMap followed;
    private final IMap<String, String> map;
    private volatile ExpectedMembers current = ExpectedMembers.NONE;
    /** Set once this member leaves: it never puts itself back. */
    private volatile boolean leaving;
    private volatile boolean started;
    /** The last unreadable text reported (roster thread only). */
    private String reportedMalformed;

    /**
     * @param forgetAfter how long a failed member keeps counting ({@code quarkus.ketama.migration.forget-failed-after})
     */
    ClusterRoster(HazelcastInstance hazelcast, Duration forgetAfter, Clock clock, ThreadFactory thread) {
        this.hazelcast = Objects.requireNonNull(hazelcast, "hazelcast");
        this.forgetAfter = Objects.requireNonNull(forgetAfter, "forgetAfter");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.followed = new FollowedMap(hazelcast, ClusterMigration.MAP, Objects.requireNonNull(thread, "thread"));
        this.map = followed.map();
    }

    /** The identity a member is expected by: its ring identity (node id, else address). */
    static String identity(Member member) {
        return ConfigurationRollout.identity(member);
    }

    /** Puts this member on the list and starts following it; returns once it is stored. */
    void start() {
        followed.listen(KEY, event -> followed.execute(this::resync), this::resync);
        call(() -> {
            resync();
            return null;
        }, MemberBoard.WRITE_TIMEOUT, "put on the cluster's expected members");
        started = true;
        followed.rereadEvery(RESYNC, this::resync);
    }

    /** The list as this member last read or wrote it: no remote call. */
    ExpectedMembers current() {
        return current;
    }

    /** This member's own identity now. */
    String self() {
        return identity(hazelcast.getCluster().getLocalMember());
    }

    /** The identities of the cluster's members now, as this member sees them. */
    List<String> present() {
        return present(hazelcast.getCluster().getMembers());
    }

    static List<String> present(Collection<Member> members) {
        List<String> out = new ArrayList<>(members.size());
        for (Member m : members) {
            out.add(identity(m));
        }
        return out;
    }

    /**
     * Takes this member off the list for good (a graceful stop), waiting at most {@code within};
     * nothing when it never started or left already. Never throws: a stop goes on either way, and a
     * member still listed counts as failed would (until it returns, is removed, or is forgotten).
     */
    void leave(Duration within) {
        if (!started || leaving) {
            return;
        }
        leaving = true;
        if (!hazelcast.getLifecycleService().isRunning()) {
            return; // stopped or crashed already: the others count it as failed
        }
        String self;
        try {
            self = self();
            call(() -> change(list -> list.without(self)), within, "taken off the cluster's expected members");
            LOG.infof("ketama: this member left the cluster's expected members (%d expected now)", current.size());
        } catch (RuntimeException e) {
            LOG.warnf("ketama: this member could not take itself off the cluster's expected members (%s); the others count it "
                    + "as a failed member: until it returns, is removed (DELETE /q/ketama/quorum?member=...), or for %s",
                    e.getMessage(), forgetAfter);
        }
    }

    /** What became of an operator's removal. */
    enum Removal {
        /** Taken off. */
        REMOVED,
        /** Not on the list. */
        NOT_EXPECTED,
        /** In the cluster now: it counts as long as it is there. */
        PRESENT
    }

    /**
     * An operator's removal of {@code identity}, a member that failed and will not return.
     *
     * @throws IllegalStateException when the list could not be changed within {@link #CHANGE_TIMEOUT}
     */
    Removal remove(String identity) {
        Objects.requireNonNull(identity, "identity");
        return call(() -> {
            if (present().contains(identity)) {
                return Removal.PRESENT;
            }
            ExpectedMembers before = read();
            if (!before.contains(identity)) {
                return Removal.NOT_EXPECTED;
            }
            ExpectedMembers after = change(list -> present().contains(identity) ? list : list.without(identity));
            return after.contains(identity) ? Removal.PRESENT : Removal.REMOVED;
        }, CHANGE_TIMEOUT, "changed");
    }

    /**
     * Re-reads the list; stores this member's copy when the entry is gone; puts this member back when
     * it is missing (unless leaving); on the oldest member, notes who is missing and forgets those
     * missing for longer than {@code forgetAfter}. Roster thread only.
     */
    private void resync() {
        try {
            String text = map.get(KEY);
            ExpectedMembers stored = text == null ? null : decode(text);
            if (stored != null) {
                current = stored;
            }
            String self = self();
            Set<Member> members = hazelcast.getCluster().getMembers();
            boolean oldest = !members.isEmpty() && members.iterator().next().localMember();
            List<String> present = present(members);
            if (stored == null || !wanted(stored, self, oldest, present, false).equals(stored)) {
                change(list -> wanted(list, self, oldest, present, true));
            }
        } catch (HazelcastInstanceNotActiveException e) {
            LOG.debug("ketama: expected members not read: Hazelcast is stopping");
        }
    }

    /** {@code list} as this member would have it: itself on it (unless leaving); as the oldest sees it, if the oldest. */
    private ExpectedMembers wanted(ExpectedMembers list, String self, boolean oldest, List<String> present, boolean log) {
        ExpectedMembers next = leaving ? list : list.with(self);
        if (oldest) {
            ExpectedMembers observed = next.observed(present, clock.instant(), forgetAfter);
            for (String gone : log ? next.forgottenIn(observed) : Set.<String>of()) {
                LOG.warnf("ketama: member %s no longer counts toward the cluster's expected size: it has been missing for longer "
                        + "than %s (quarkus.ketama.migration.forget-failed-after)", gone, forgetAfter);
            }
            next = observed;
        }
        return next;
    }

    /** The stored list, or this member's copy when there is none or it is unreadable; remembered as current. */
    private ExpectedMembers read() {
        String text = map.get(KEY);
        if (text == null) {
            return current;
        }
        ExpectedMembers list = decode(text);
        if (list != null) {
            current = list;
            return list;
        }
        return current;
    }

    /** Applies {@code change} to the stored list by compare-and-set (the stored one, or this member's copy when gone). */
    private ExpectedMembers change(UnaryOperator<ExpectedMembers> change) {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            String text = map.get(KEY);
            ExpectedMembers base = text == null ? current : decode(text);
            if (base == null) {
                base = current; // unreadable: replaced by a well-formed list
            }
            ExpectedMembers next = change.apply(base);
            if (text != null && next.equals(base) && decode(text) != null) {
                current = base;
                return base;
            }
            boolean won = text == null ? map.putIfAbsent(KEY, next.encode()) == null : map.replace(KEY, text, next.encode());
            if (won) {
                if (text == null && !current.members().isEmpty()) {
                    LOG.warnf("ketama: the cluster had lost its expected members (every copy was on members that left or were cut "
                            + "off at once); this member stored the list it knows: %s", next.members().keySet());
                }
                if (!next.members().keySet().equals(base.members().keySet())) {
                    LOG.infof("ketama: the cluster expects %d members now: %s", next.size(), next.members().keySet());
                }
                current = next;
                return next;
            }
        }
        throw new IllegalStateException("the cluster's expected members changed " + MAX_ATTEMPTS + " times while this member "
                + "changed them; tried again later");
    }

    private ExpectedMembers decode(String text) {
        try {
            return ExpectedMembers.decode(text);
        } catch (IllegalArgumentException e) {
            if (!text.equals(reportedMalformed)) {
                reportedMalformed = text;
                LOG.errorf("ketama: the cluster's expected members are unreadable, keeping %s: %s", current.members().keySet(),
                        e.getMessage());
            }
            return null;
        }
    }

    /** Runs {@code task} on the roster's thread and waits for it at most {@code within}. */
    private <T> T call(java.util.concurrent.Callable<T> task, Duration within, String what) {
        Future<T> f = followed.submit(task);
        try {
            return f.get(within.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted before this member was " + what, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("this member was not " + what + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("this member was not " + what + " within " + within
                    + " (a member holding the list may be paused or cut off)", e);
        }
    }

    @Override
    public void close() {
        followed.close();
    }
}
