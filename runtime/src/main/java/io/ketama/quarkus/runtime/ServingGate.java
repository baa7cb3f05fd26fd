package io.ketama.quarkus.runtime;

import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.ServingState;

import com.hazelcast.cluster.Member;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * This member's side of the serving gate and the drain: it says on the {@link MemberBoard} when it
 * is ready to serve (the others then place it on their rings), and on a graceful stop it says it is
 * draining and waits until every other member's rings have let it go, so no member sends it a key
 * after it stops serving.
 *
 * <p>The wait is bounded ({@code timeout}); a member that does not confirm in time (hung, or cut
 * off) is named in the {@link DrainReport}, and the stop goes on: the Hazelcast departure that
 * follows takes the member off that member's rings as any departure does.
 */
final class ServingGate {

    private static final Logger LOG = Logger.getLogger(ServingGate.class);
    private static final long POLL_MILLIS = 20;

    private final MemberBoard board;
    private final Supplier<Set<Member>> clusterMembers;
    private final Supplier<RingSnapshot> localRings;

    /**
     * @param clusterMembers the cluster's members now
     * @param localRings     this member's current rings
     */
    ServingGate(MemberBoard board, Supplier<Set<Member>> clusterMembers, Supplier<RingSnapshot> localRings) {
        this.board = Objects.requireNonNull(board, "board");
        this.clusterMembers = Objects.requireNonNull(clusterMembers, "clusterMembers");
        this.localRings = Objects.requireNonNull(localRings, "localRings");
    }

    /** Says this member is ready to serve; returns once the others can read it. */
    void open() {
        board.update(s -> s.withState(ServingState.SERVING));
        board.flush();
        LOG.infof("ketama: this member is ready to serve and joins the rings");
    }

    ServingState state() {
        return board.mine().state();
    }

    /**
     * What a drain achieved.
     *
     * @param took        from the start of the drain until every member let go (or the timeout)
     * @param confirmed   members whose rings let this member go
     * @param unconfirmed members that still had it on their rings at the timeout (addresses)
     */
    record DrainReport(Duration took, int confirmed, List<String> unconfirmed) {
        boolean complete() {
            return unconfirmed.isEmpty();
        }
    }

    /**
     * Takes this member off every member's rings: says it is draining, then waits until its own
     * rings and those of every other member that runs the extension no longer contain it, at most
     * {@code timeout}; then keeps serving for {@code quietPeriod}, for keys that members routed here
     * just before they let go, and, when this member was on its own rings, for requests its clients
     * sent before they saw it stop being ready (a member alone in its cluster, or cut off from the
     * others, has no member to confirm and still has clients: stopping at once refused their
     * requests in flight, seen in {@code ClusterControlIT} when a rolling restart left a member alone).
     */
    DrainReport drain(Duration timeout, Duration quietPeriod) throws InterruptedException {
        long start = System.nanoTime();
        boolean servedHere = localRings.get().containsLocalMember();
        board.update(s -> s.withState(ServingState.DRAINING));
        board.flush();
        long deadline = start + timeout.toNanos();
        List<String> holding;
        int confirmed;
        while (true) {
            holding = new ArrayList<>();
            confirmed = 0;
            if (localRings.get().containsLocalMember()) {
                holding.add("this member");
            }
            Set<Member> members = clusterMembers.get();
            Map<UUID, MemberStatus> statuses = board.read(members);
            UUID self = null;
            for (Member m : members) {
                if (m.localMember()) {
                    self = m.getUuid(); // as it is now: a merge gives this member a new UUID
                }
            }
            for (Member m : members) {
                if (m.localMember()) {
                    continue;
                }
                MemberStatus s = statuses.get(m.getUuid());
                if (s == null) {
                    continue; // does not run the extension: routes nothing
                }
                if (s.ringMembers().contains(self)) {
                    holding.add(MemberAddress.of(m));
                } else {
                    confirmed++;
                }
            }
            if (holding.isEmpty() || System.nanoTime() > deadline) {
                break;
            }
            Thread.sleep(POLL_MILLIS);
        }
        DrainReport report = new DrainReport(Duration.ofNanos(System.nanoTime() - start), confirmed, List.copyOf(holding));
        if (report.complete() && confirmed == 0) {
            LOG.infof("ketama: drained in %d ms: no other member routes keys%s", report.took().toMillis(),
                    servedHere ? "; serving " + quietPeriod.toMillis() + " ms more for requests already sent here" : "");
        } else if (report.complete()) {
            LOG.infof("ketama: drained: %d other members took this member off their rings in %d ms; serving %d ms more for "
                    + "keys already routed here", confirmed, report.took().toMillis(), quietPeriod.toMillis());
        } else {
            LOG.warnf("ketama: drain timed out after %s: still on the rings of %s; stopping anyway", timeout, holding);
        }
        if (confirmed > 0 || servedHere) { // members or clients that sent keys here may still have some on the way
            Thread.sleep(quietPeriod.toMillis());
        }
        return report;
    }
}
