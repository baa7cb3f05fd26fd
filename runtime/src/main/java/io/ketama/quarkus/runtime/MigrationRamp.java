package io.ketama.quarkus.runtime;

import io.ketama.core.EnumLabels;
import io.ketama.quarkus.ForwardOutcomes;
import io.ketama.quarkus.MigrationConflictException;
import io.ketama.quarkus.MigrationQuorumException;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationState;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Drives a {@link RampPlan} from this member: takes the first step at once, then one step per
 * interval, each a compare-and-set change of the cluster's {@link MigrationState}, and brakes.
 *
 * <h2>The brake</h2>
 * Before each later step it looks at the interval just past, as this member saw it:
 * <ul>
 *   <li><b>forward errors</b> ({@link RampPlan#maxForwardErrorPercent()}): when at least
 *       {@code minSamples} forwards were made and more than the threshold failed, the ramp holds,
 *       and with {@link RampPlan#rollback()} puts the migration back to what it was before the ramp;</li>
 *   <li><b>predicted misses</b> ({@link RampPlan#maxPredictedMissPercent()}): the next step moves
 *       {@code (next − current)} percent of the keys to the other ring, and the shadow
 *       disagreement rate {@code d} says which share of those change owner, so it costs about
 *       {@code (next − current) × d} percent of requests one cache miss each. Above the threshold, or
 *       with fewer than {@code minSamples} shadow selections to tell, the ramp holds.</li>
 * </ul>
 * A held ramp stays held (the share stays where it is); start a new one to go on. When anyone else
 * changes the migration state during the ramp, the ramp's next compare-and-set fails and the ramp
 * stops as {@link Phase#CANCELLED}; a ramp started on a state that is no longer the cluster's (an
 * operator's stale read, or a member that has not yet applied the latest change) does not start at
 * all ({@link #start} throws the conflict). Every step, hold and rollback is logged and counted. The
 * ramp runs on the member that started it: if that member stops, the ramp stops where it is.
 *
 * <h2>Split clusters</h2>
 * A step is a migration change like any other, so it needs the quorum of one: a majority of the
 * members the cluster expects, or {@code quarkus.ketama.migration.min-members} ({@link MigrationQuorum}). When it is refused (this member sees too few members: it may be
 * on the smaller side of a network partition) or not confirmed by enough members in time, the ramp
 * is {@link Phase#PAUSED}, says why, and tries the same step again every interval until it is
 * acknowledged; the brake then starts from a new baseline, since the interval of the split says
 * nothing about the step. A step stored but not confirmed is retried on top of itself (same settings,
 * next generation); if the merge that ends the split replaced it, the retry's compare-and-set fails and
 * the ramp is cancelled, as after any other change.
 */
final class MigrationRamp implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(MigrationRamp.class);

    /** Where a ramp stands. */
    enum Phase {
        /** Taking steps. */
        RUNNING,
        /** A step could not be made for too few members (the cluster may be split); tried again every interval. */
        PAUSED,
        /** Stopped by the brake; the share stays where it is. */
        HELD,
        /** Stopped by the brake, and the migration was put back to what it was before the ramp. */
        ROLLED_BACK,
        /** Every step taken and the last interval passed without a brake. */
        DONE,
        /** Stopped by an operator, or by another change of the migration state. */
        CANCELLED;

        String label() {
            return EnumLabels.label(this);
        }

        /** Whether the ramp may still take steps (running, or paused until the cluster is whole). */
        boolean live() {
            return this == RUNNING || this == PAUSED;
        }
    }

    /**
     * Counters the brake reads, cumulative since start.
     *
     * @param shadowSelections    selections made in shadow mode
     * @param shadowDisagreements of those, the ones where the other ring chose another member
     * @param forwards            forwards to other members (0 when the application reports none)
     * @param failedForwards      of those, the failed ones
     */
    record Signals(long shadowSelections, long shadowDisagreements, long forwards, long failedForwards) {

        /** The counts as they stand: {@code shadows}, and {@code forwards} (null where the application reports none). */
        static Signals of(ShadowCounts shadows, ForwardOutcomes forwards) {
            return new Signals(shadows.selections(), shadows.disagreements(), forwards == null ? 0 : forwards.forwards(),
                    forwards == null ? 0 : forwards.failedForwards());
        }
    }

    /**
     * A ramp's progress.
     *
     * @param phase      where it stands
     * @param plan       the plan
     * @param stepsTaken steps of the plan taken so far
     * @param event      the last thing it did, and why
     * @param nextStepAt when the brake looks next (null unless running)
     */
    record Status(Phase phase, RampPlan plan, int stepsTaken, String event, Instant nextStepAt) {
    }

    private final ClusterMigration migration;
    private final Supplier<Signals> signals;
    private final Clock clock;
    private final ScheduledExecutorService executor;
    private long stepCount;
    private long holdCount;
    private long rollbackCount;
    private Status status;
    /** The settings the ramp's first step was made on: where a rollback goes. */
    private MigrationSettings before;
    private long lastGeneration;
    private Signals baseline;
    private String startedBy;
    private ScheduledFuture<?> next;

    MigrationRamp(ClusterMigration migration, Supplier<Signals> signals, Clock clock) {
        this.migration = Objects.requireNonNull(migration, "migration");
        this.signals = Objects.requireNonNull(signals, "signals");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ketama-ramp");
            t.setDaemon(true);
            return t;
        });
    }

    /** {@link #start(RampPlan, long, String)} against the state this member applies. */
    synchronized Status start(RampPlan plan, String who) {
        return start(plan, ClusterMigration.ANY_GENERATION, who);
    }

    /**
     * Starts {@code plan}: takes its first step now, as a compare-and-set against generation
     * {@code expectedGeneration} of the cluster's state (the one the operator read), or with
     * {@link ClusterMigration#ANY_GENERATION} against the state this member applies. When the
     * cluster's state is at another generation (someone changed it since, or this member has not
     * applied a change made on another member yet, or it changed during the first step), nothing
     * starts and nothing changes: the ramp's rollback target and the operator's decision were based
     * on a state that is gone, so the caller must look again. The condition is the step's own
     * compare-and-set, so no change can come between the check and the step.
     *
     * @throws IllegalStateException      when a ramp is running
     * @throws MigrationConflictException when the cluster's state is not at the expected generation
     */
    synchronized Status start(RampPlan plan, long expectedGeneration, String who) {
        if (status != null && status.phase().live()) {
            throw new IllegalStateException("a ramp is " + status.phase().label() + " (step " + status.stepsTaken() + " of "
                    + status.plan().steps().size() + "); cancel it first");
        }
        boolean named = expectedGeneration != ClusterMigration.ANY_GENERATION;
        long expected = named ? expectedGeneration : migration.current().generation();
        // the settings the step is made on: with a named generation, the cluster's at that
        // generation, which this member may not have applied yet
        MigrationSettings[] base = new MigrationSettings[1];
        MigrationState made;
        try {
            made = migration.update(settings -> {
                base[0] = settings;
                return stepSettings(plan, 0, settings);
            }, expected, MigrationState.BY_RAMP + "started by " + who);
        } catch (MigrationConflictException e) {
            LOG.warnf("ketama ramp: not started by %s: the cluster's migration state is at generation %d (changed by %s), "
                    + "%s generation %d; nothing was changed", who, e.current().generation(), e.current().changedBy(),
                    named ? "the start expected" : "this member applied", expected);
            throw e;
        }
        before = base[0];
        startedBy = who;
        LOG.infof("ketama ramp: started by %s from %s: steps %s every %s, brake: predicted miss > %s %%, forward errors > %s %%%s",
                who, before, plan.steps(), plan.interval(), plan.maxPredictedMissPercent(), plan.maxForwardErrorPercent(),
                plan.rollback() ? ", rolls back" : "");
        stepped(plan, 0, made);
        return status;
    }

    /** {@link #cancel(long, String)} whatever the state's generation. */
    synchronized Status cancel(String who) {
        return cancel(ClusterMigration.ANY_GENERATION, who);
    }

    /**
     * Stops the running ramp where it is; with an {@code expectedGeneration}, only when the
     * cluster's migration state (as stored, not as this member last applied it) is still at that
     * generation. The check and the stop hold the ramp's lock, so the ramp's own next step cannot
     * come between them; a change made elsewhere just after the check is as one made just after the
     * stop.
     *
     * @throws IllegalStateException      when no ramp is running
     * @throws MigrationConflictException when the cluster's state is not at the expected generation
     */
    synchronized Status cancel(long expectedGeneration, String who) {
        if (status == null) {
            throw new IllegalStateException("no ramp is running: none was started on this member");
        }
        if (!status.phase().live()) {
            // a held ramp has stopped for good (its brake fired); saying so spares the operator a
            // cancel that looks refused while GET shows the ramp "held"
            throw new IllegalStateException("no ramp is running: the last one is " + status.phase().label() + " (" + status.event()
                    + ") and takes no more steps; PUT a new plan to go on");
        }
        if (expectedGeneration != ClusterMigration.ANY_GENERATION) {
            MigrationState now = migration.latest();
            if (now.generation() != expectedGeneration) {
                LOG.warnf("ketama ramp: not cancelled by %s: the cluster's migration state is at generation %d (changed by %s), "
                        + "not %d as expected; the ramp runs on", who, now.generation(), now.changedBy(), expectedGeneration);
                throw new MigrationConflictException(now, expectedGeneration);
            }
        }
        finish(Phase.CANCELLED, "cancelled by " + who + " at step " + status.stepsTaken());
        return status;
    }

    /** The generation of the migration state this member applies (the ramp's answers carry it as their ETag). */
    long generation() {
        return migration.current().generation();
    }

    /** The last ramp's progress, or null when none was started. */
    synchronized Status status() {
        return status;
    }

    synchronized long steps() {
        return stepCount;
    }

    synchronized long holds() {
        return holdCount;
    }

    synchronized long rollbacks() {
        return rollbackCount;
    }

    /** The settings of step {@code index} of {@code plan}, made on {@code base}. */
    private static MigrationSettings stepSettings(RampPlan plan, int index, MigrationSettings base) {
        boolean shadow = plan.maxPredictedMissPercent() != null || base.shadow();
        return new MigrationSettings(MigrationSettings.Mode.SPLIT, plan.steps().get(index), shadow);
    }

    /**
     * Takes a later step {@code index}; another change of the state since the ramp's last step
     * cancels the ramp. Caller holds the lock.
     */
    private void step(int index) {
        RampPlan plan = status.plan();
        MigrationState made;
        try {
            made = migration.update(settings -> stepSettings(plan, index, settings), lastGeneration, MigrationState.BY_RAMP + "started by " + startedBy);
        } catch (MigrationConflictException e) {
            finish(Phase.CANCELLED, "the migration state was changed by " + e.current().changedBy() + " (generation "
                    + e.current().generation() + ") during the ramp");
            return;
        } catch (MigrationQuorumException e) {
            pause(index, e);
            return;
        }
        stepped(plan, index, made);
    }

    /**
     * Step {@code index} was refused or unconfirmed for too few members: waits an interval and
     * tries it again ({@link #look}). Caller holds the lock.
     */
    private void pause(int index, MigrationQuorumException e) {
        if (e.storedState() != null) {
            lastGeneration = e.storedState().generation(); // the retry goes on top of the unconfirmed step
        }
        RampPlan plan = status.plan();
        Instant at = clock.instant().plus(plan.interval());
        String event = "paused before step " + (index + 1) + " of " + plan.steps().size() + " (v2 share " + plan.steps().get(index)
                + " %), tried again every " + plan.interval() + ": " + e.getMessage();
        if (status.phase() != Phase.PAUSED) {
            LOG.warnf("ketama ramp: %s", event);
        }
        status = new Status(Phase.PAUSED, plan, index, event, at);
        next = executor.schedule(this::look, plan.interval().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Records step {@code index}, made as {@code made}, and schedules the brake's next look. Caller holds the lock. */
    private void stepped(RampPlan plan, int index, MigrationState made) {
        lastGeneration = made.generation();
        stepCount++;
        baseline = signals.get();
        Instant at = clock.instant().plus(plan.interval());
        String event = "step " + (index + 1) + " of " + plan.steps().size() + ": v2 share " + plan.steps().get(index) + " % (generation "
                + made.generation() + ")";
        status = new Status(Phase.RUNNING, plan, index + 1, event, at);
        LOG.infof("ketama ramp: %s", event);
        next = executor.schedule(this::look, plan.interval().toMillis(), TimeUnit.MILLISECONDS);
    }

    private synchronized void look() {
        if (status == null || !status.phase().live()) {
            return;
        }
        try {
            if (status.phase() == Phase.PAUSED) {
                step(status.stepsTaken()); // the interval of a split says nothing about the step: no brake
                return;
            }
            RampPlan plan = status.plan();
            Signals now = signals.get();
            long forwards = now.forwards() - baseline.forwards();
            long failed = now.failedForwards() - baseline.failedForwards();
            if (plan.maxForwardErrorPercent() != null && forwards >= plan.minSamples()) {
                double errorPercent = 100.0 * failed / forwards;
                if (errorPercent > plan.maxForwardErrorPercent()) {
                    String why = String.format(java.util.Locale.ROOT, "%.2f %% of %d forwards failed in the last interval (limit %s %%)",
                            errorPercent, forwards, plan.maxForwardErrorPercent());
                    if (plan.rollback()) {
                        rollBack(why);
                    } else {
                        hold(why);
                    }
                    return;
                }
            }
            int taken = status.stepsTaken();
            if (taken == plan.steps().size()) {
                finish(Phase.DONE, "every step taken; the last interval passed without a brake");
                return;
            }
            if (plan.maxPredictedMissPercent() != null) {
                long selections = now.shadowSelections() - baseline.shadowSelections();
                long disagreements = now.shadowDisagreements() - baseline.shadowDisagreements();
                if (selections < plan.minSamples()) {
                    hold("only " + selections + " shadow selections in the last interval (at least " + plan.minSamples()
                            + " needed to predict the next step's misses)");
                    return;
                }
                double rate = (double) disagreements / selections;
                double stepSize = plan.steps().get(taken) - plan.steps().get(taken - 1);
                double predicted = stepSize * rate;
                if (predicted > plan.maxPredictedMissPercent()) {
                    hold(String.format(java.util.Locale.ROOT, "the next step (+%s %%) would miss about %.3f %% of requests "
                            + "(disagreement rate %.4f over %d selections; limit %s %%)", stepSize, predicted, rate, selections,
                            plan.maxPredictedMissPercent()));
                    return;
                }
            }
            step(taken);
        } catch (RuntimeException e) {
            LOG.errorf(e, "ketama ramp: the brake's look failed");
            hold("the brake could not look: " + e);
        }
    }

    private void hold(String why) {
        holdCount++;
        LOG.warnf("ketama ramp: held at step %d: %s", status.stepsTaken(), why);
        status = new Status(Phase.HELD, status.plan(), status.stepsTaken(), "held: " + why, null);
    }

    private void rollBack(String why) {
        holdCount++;
        try {
            MigrationState back = migration.update(before, lastGeneration, MigrationState.BY_RAMP + "rollback (started by " + startedBy + ")");
            rollbackCount++;
            LOG.warnf("ketama ramp: rolled back to %s (generation %d): %s", before, back.generation(), why);
            status = new Status(Phase.ROLLED_BACK, status.plan(), status.stepsTaken(), "rolled back to " + before
                    + ": " + why, null);
        } catch (MigrationConflictException e) {
            LOG.warnf("ketama ramp: held, not rolled back: the state was changed by %s meanwhile: %s", e.current().changedBy(), why);
            status = new Status(Phase.HELD, status.plan(), status.stepsTaken(), "held (the state changed meanwhile, so not "
                    + "rolled back): " + why, null);
        }
    }

    private void finish(Phase phase, String why) {
        if (next != null) {
            next.cancel(false);
        }
        LOG.infof("ketama ramp: %s: %s", phase.label(), why);
        status = new Status(phase, status.plan(), status.stepsTaken(), why, null);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
