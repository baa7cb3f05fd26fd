package io.ketama.router.purge;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IExecutorService;
import com.hazelcast.core.LifecycleEvent;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.PurgeMarks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Purges across the cluster, and what keeps a member that missed one from serving what it purged.
 *
 * <h2>What a purge's answer means</h2>
 * A purge is applied on this member, then sent to every other member in its view (Hazelcast's
 * executor, {@value PurgeSerialization#EXECUTOR}), and waits for them at most {@code timeout}. It is
 * <b>complete</b> ({@link PurgeOutcome#complete()}, the call's {@code 200}) only when every member in
 * the view confirmed and no member has left the view by failure in the last {@code missingFor}: then
 * no member holds a purged answer, and none can store one again from a fetch that started before
 * the purge ({@link PurgeMarks}). Otherwise the outcome names the members not confirmed (the call's
 * {@code 202}), and this is what keeps each of them from serving a purged answer when it comes back:
 * <ul>
 *   <li><b>of the release before purges</b> (a rolling upgrade): a purge by key reaches it over the
 *       member channel, key by key, as that release's unsafe-method invalidation did; a purge by tag
 *       cannot, and names it;</li>
 *   <li><b>in the view but silent</b> (slow, its channel failing): the purge is sent again every second
 *       until it confirms or leaves the view;</li>
 *   <li><b>stalled</b> (paused, a long collection): it drops everything it holds before it serves the
 *       first answer after a stand-still of three quarters of {@code timeout} ({@link PurgeMarks#awake()}),
 *       so a stall long enough to miss a purge's wait always fences it;</li>
 *   <li><b>cut off</b> (a partition, a pause long enough to be dropped): when the cluster heals, the
 *       members that merge into the other side drop everything they hold (Hazelcast's {@code MERGED}),
 *       and every member that sees a member join that has been running for longer than
 *       {@value #JOIN_GRACE_MILLIS} ms (one coming back, not one starting) drops everything it holds:
 *       a purge sent on the other side meanwhile reached neither, however long this member itself has
 *       run (one restarted just before or during the split has stored answers since).</li>
 * </ul>
 * A fence costs a round of misses on the member that drops its answers; only partitions, merges and
 * stalls cause one, never a ring change, a scale-out, or a drained member's rolling restart.
 */
public final class ClusterPurge implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ClusterPurge.class);
    /** The member attribute that says when its process started (epoch ms). */
    public static final String STARTED_ATTRIBUTE = "ketama.router.started";
    /** A member that joins having run longer than this comes back from the other side of a split, not from a start. */
    static final long JOIN_GRACE_MILLIS = 60_000;
    private final long joinGraceMillis;
    private static final long RETRY_MILLIS = 1_000;

    private final HazelcastInstance hazelcast;
    private final MemberPurge local;
    private final PurgeMarks marks;
    private final long timeoutMillis;
    private final long missingForMillis;
    private final Supplier<Set<String>> draining;
    /** Drops one key on a member of the release before purges, over the member channel (channel version 5). */
    private final BiFunction<Member, String, CompletionStage<Void>> channelInvalidation;
    private final String localAddress;
    /** Members that left by failure: address, when. */
    private final Map<String, Long> missing = new ConcurrentHashMap<>();
    /** Members in the view that did not confirm a purge: what to send them again. */
    private final Map<String, PurgeCommand> pending = new ConcurrentHashMap<>();
    private volatile Set<String> lastDraining = Set.of();
    private final ScheduledExecutorService watch;
    private final UUID membership;
    private final UUID lifecycle;
    private final LongAdder purges = new LongAdder();
    private final LongAdder notConfirmed = new LongAdder();
    private final AtomicLong resent = new AtomicLong();

    private ClusterPurge(HazelcastInstance hazelcast, MemberPurge local, PurgeMarks marks, Duration timeout, Duration missingFor,
                         Supplier<Set<String>> draining, BiFunction<Member, String, CompletionStage<Void>> channelInvalidation,
                         long joinGraceMillis) {
        this.joinGraceMillis = joinGraceMillis;
        this.channelInvalidation = channelInvalidation;
        this.hazelcast = hazelcast;
        this.local = local;
        this.marks = marks;
        this.timeoutMillis = timeout.toMillis();
        this.missingForMillis = missingFor.toMillis();
        this.draining = draining;
        this.localAddress = Members.address(hazelcast.getCluster().getLocalMember());
        this.watch = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ketama-router-purge-watch");
            t.setDaemon(true);
            return t;
        });
        hazelcast.getUserContext().put(MemberPurge.USER_CONTEXT_KEY, local);
        marks.onFence(() -> LOG.warnf("purge fence: member %s dropped every stored answer and near copy it held: %s", localAddress,
                marks.lastFence()));
        this.membership = hazelcast.getCluster().addMembershipListener(new Listener());
        this.lifecycle = hazelcast.getLifecycleService().addLifecycleListener(this::lifecycle);
        marks.tick();
        watch.scheduleAtFixedRate(marks::tick, PurgeMarks.TICK_MILLIS, PurgeMarks.TICK_MILLIS, TimeUnit.MILLISECONDS);
        watch.scheduleWithFixedDelay(this::housekeeping, RETRY_MILLIS, RETRY_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Starts purging for this member: registers {@code local} for the others' purges, follows the
     * membership, and watches this JVM for stand-stills.
     *
     * @param draining            the addresses of the members that say they are draining now (they leave gracefully)
     * @param channelInvalidation drops one key on a member over the member channel: how a purge by key
     *                            reaches a member of the release before purges (it publishes no
     *                            {@link #STARTED_ATTRIBUTE}) during a rolling upgrade
     */
    public static ClusterPurge start(HazelcastInstance hazelcast, MemberPurge local, PurgeMarks marks, Duration timeout,
                                     Duration missingFor, Supplier<Set<String>> draining,
                                     BiFunction<Member, String, CompletionStage<Void>> channelInvalidation) {
        return new ClusterPurge(hazelcast, local, marks, timeout, missingFor, draining, channelInvalidation, JOIN_GRACE_MILLIS);
    }

    /** {@link #start} taking a member that has run {@code joinGraceMillis} when it joins as coming back (a test's short one). */
    static ClusterPurge start(HazelcastInstance hazelcast, MemberPurge local, PurgeMarks marks, Duration timeout, Duration missingFor,
                              Supplier<Set<String>> draining, BiFunction<Member, String, CompletionStage<Void>> channelInvalidation,
                              long joinGraceMillis) {
        return new ClusterPurge(hazelcast, local, marks, timeout, missingFor, draining, channelInvalidation, joinGraceMillis);
    }

    /** The stand-still after which a member fences: three quarters of a purge's wait, at least 500 ms. */
    public static long pauseMillis(Duration timeout) {
        return Math.max(500, timeout.toMillis() * 3 / 4);
    }

    /** Purges {@code command} on every member; completes (never exceptionally) once all confirmed or the wait ended. */
    public CompletableFuture<PurgeOutcome> purge(PurgeCommand command) {
        long start = System.nanoTime();
        purges.increment();
        List<String> confirmed = Collections.synchronizedList(new ArrayList<>());
        Map<String, String> silent = new ConcurrentHashMap<>();
        AtomicLong dropped = new AtomicLong(local.apply(command.keys(), command.tags()));
        confirmed.add(localAddress);
        IExecutorService executor = hazelcast.getExecutorService(PurgeSerialization.EXECUTOR);
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (Member m : hazelcast.getCluster().getMembers()) {
            if (m.localMember()) {
                continue;
            }
            String address = Members.address(m);
            if (startedOf(m) == 0) { // a release before purges: by key over the member channel, or not at all
                all.add(previousRelease(m, command).handle((v, failure) -> {
                    if (failure == null) {
                        confirmed.add(address);
                    } else {
                        silent.put(address, failure.getMessage() != null && failure.getMessage().startsWith(PREVIOUS_RELEASE)
                                ? failure.getMessage() : PREVIOUS_RELEASE + ", and its member channel " + what(failure));
                    }
                    return null;
                }));
                continue;
            }
            all.add(send(executor, m, command).handle((n, failure) -> {
                if (failure == null) {
                    confirmed.add(address);
                    dropped.addAndGet(Math.max(0, n));
                } else {
                    silent.put(address, reason(failure));
                    pending.merge(address, command, ClusterPurge::merged);
                }
                return null;
            }));
        }
        return CompletableFuture.allOf(all.toArray(new CompletableFuture[0])).handle((v, f) -> {
            long now = System.currentTimeMillis();
            Map<String, String> names = new java.util.TreeMap<>(silent);
            missing.forEach((address, since) -> names.putIfAbsent(address, "cut off from this member by failure "
                    + (now - since) / 1000 + " s ago; it drops everything it holds when it comes back"));
            if (!names.isEmpty()) {
                notConfirmed.increment();
            }
            List<String> sorted;
            synchronized (confirmed) {
                sorted = new ArrayList<>(confirmed);
            }
            Collections.sort(sorted);
            return new PurgeOutcome(command.keys().size(), command.tags().size(), dropped.get(), sorted, names,
                    (System.nanoTime() - start) / 1_000_000);
        });
    }

    private static final String PREVIOUS_RELEASE = "runs a release before purges";

    /**
     * A purge sent to a member of the release before purges (rolling upgrade): each key dropped over
     * the member channel, as that release drops a key an unsafe method changed; tags it cannot read.
     * Not sent again: what it holds ends with its answers' freshness, or its restart into this release.
     */
    private CompletableFuture<Void> previousRelease(Member member, PurgeCommand command) {
        if (!command.tags().isEmpty()) {
            return CompletableFuture.failedFuture(new IllegalStateException(PREVIOUS_RELEASE
                    + ", which cannot purge by tag: what it holds ends with its answers' freshness or its upgrade"));
        }
        List<CompletableFuture<Void>> keys = new ArrayList<>(command.keys().size());
        for (String key : command.keys()) {
            CompletableFuture<Void> one;
            try {
                one = channelInvalidation.apply(member, key).toCompletableFuture();
            } catch (RuntimeException e) {
                one = CompletableFuture.failedFuture(e);
            }
            keys.add(one);
        }
        return CompletableFuture.allOf(keys.toArray(new CompletableFuture[0])).orTimeout(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    private CompletableFuture<Integer> send(IExecutorService executor, Member member, PurgeCommand command) {
        CompletableFuture<Integer> answer = new CompletableFuture<>();
        try {
            executor.submitToMember(new HazelcastPurgeTask(command.keys(), command.tags()), member, new ExecutionCallback<Integer>() {
                @Override
                public void onResponse(Integer response) {
                    answer.complete(response == null ? 0 : response);
                }

                @Override
                public void onFailure(Throwable t) {
                    answer.completeExceptionally(t);
                }
            });
        } catch (RuntimeException e) {
            answer.completeExceptionally(e);
        }
        return answer.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    private static final String RESENT = "; asked again every second until it answers or leaves";

    private static String reason(Throwable failure) {
        return what(failure) + RESENT;
    }

    /** What went wrong with a member's answer, in a few words. */
    private static String what(Throwable failure) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof java.util.concurrent.TimeoutException) {
            return "no answer within the purge's wait";
        }
        return "failed (" + cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage()) + ")";
    }

    /** What a member that missed {@code a} and {@code b} is sent again: both, or everything where they name too much together. */
    private static PurgeCommand merged(PurgeCommand a, PurgeCommand b) {
        if (a.size() + b.size() > PurgeCommand.MAX_ITEMS) {
            return Everything.COMMAND;
        }
        Set<String> keys = new LinkedHashSet<>(a.keys());
        keys.addAll(b.keys());
        Set<String> tags = new LinkedHashSet<>(a.tags());
        tags.addAll(b.tags());
        return new PurgeCommand(new ArrayList<>(keys), tags);
    }

    /** The command that stands for "drop everything": too much was missed to name it. */
    static final class Everything {
        static final String TAG = "\u0000everything";
        static final PurgeCommand COMMAND = new PurgeCommand(List.of(), Set.of(TAG));

        private Everything() {
        }
    }

    /** Every second: the purges members missed sent again, members missing too long forgotten, the draining members read. */
    private void housekeeping() {
        try {
            lastDraining = draining.get();
            long now = System.currentTimeMillis();
            missing.values().removeIf(since -> now - since > missingForMillis);
            if (pending.isEmpty()) {
                return;
            }
            IExecutorService executor = hazelcast.getExecutorService(PurgeSerialization.EXECUTOR);
            for (Member m : hazelcast.getCluster().getMembers()) {
                String address = Members.address(m);
                PurgeCommand missed = m.localMember() ? null : pending.get(address);
                if (missed == null) {
                    continue;
                }
                resent.incrementAndGet();
                send(executor, m, missed).whenComplete((n, failure) -> {
                    if (failure == null) {
                        pending.remove(address, missed);
                        LOG.infof("purge: member %s confirmed a purge it missed (%d keys, %d tags)", address, missed.keys().size(),
                                missed.tags().size());
                    }
                });
            }
            Set<String> inView = new java.util.HashSet<>();
            for (Member m : hazelcast.getCluster().getMembers()) {
                inView.add(Members.address(m));
            }
            pending.keySet().removeIf(address -> !inView.contains(address)); // gone: it fences when it comes back
        } catch (RuntimeException e) {
            LOG.debug("purge housekeeping failed; tried again in a second", e);
        }
    }

    private void lifecycle(LifecycleEvent event) {
        if (event.getState() == LifecycleEvent.LifecycleState.MERGED) {
            fence("this member merged into another cluster after a split: purges sent there meanwhile did not reach it");
        }
    }

    private void fence(String why) {
        marks.fence(why); // logged by the listener registered at the start, as a fence on a stand-still is
    }

    private final class Listener implements MembershipListener {
        @Override
        public void memberAdded(MembershipEvent event) {
            Member m = event.getMember();
            String address = Members.address(m);
            missing.remove(address);
            long now = System.currentTimeMillis();
            long since = startedOf(m);
            // whether or not this member itself has run that long: one started during the split (or just
            // before it) has stored answers since, which a purge on the other side did not reach either
            if (since > 0 && now - since > joinGraceMillis) {
                fence("member " + address + " joined after running for " + (now - since) / 1000
                        + " s: it comes back from the other side of a split, where purges may have been sent that did not reach this member");
            }
        }

        @Override
        public void memberRemoved(MembershipEvent event) {
            String address = Members.address(event.getMember());
            pending.remove(address);
            if (lastDraining.contains(address)) {
                return; // it left gracefully, holding nothing it could serve again
            }
            missing.put(address, System.currentTimeMillis());
        }
    }

    private static long startedOf(Member m) {
        String s = m.getAttribute(STARTED_ATTRIBUTE);
        try {
            return s == null ? 0 : Long.parseLong(s);
        } catch (NumberFormatException e) {
            return 0; // a member that says nothing (or nonsense) about its start is not taken as coming back
        }
    }

    /** Purges started on this member. */
    public long purges() {
        return purges.sum();
    }

    /** Purges started here that some member did not confirm. */
    public long notConfirmed() {
        return notConfirmed.sum();
    }

    /** Members whose missed purges are being sent again now. */
    public int pendingMembers() {
        return pending.size();
    }

    /** Members cut off by failure that purges name as not confirmed now. */
    public Set<String> missing() {
        return Set.copyOf(missing.keySet());
    }

    public MemberPurge local() {
        return local;
    }

    public PurgeMarks marks() {
        return marks;
    }

    @Override
    public void close() {
        watch.shutdownNow();
        try {
            hazelcast.getCluster().removeMembershipListener(membership);
            hazelcast.getLifecycleService().removeLifecycleListener(lifecycle);
            hazelcast.getUserContext().remove(MemberPurge.USER_CONTEXT_KEY, local);
        } catch (RuntimeException e) {
            LOG.debug("Hazelcast already stopped", e);
        }
    }
}
