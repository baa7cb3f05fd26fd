package io.ketama.quarkus;

/**
 * A migration change that this member could not make safely: it sees fewer members than the
 * change needs, a majority of the members the cluster expects or, when set,
 * {@code quarkus.ketama.migration.min-members} (the cluster may be split and this the smaller
 * side), or the change was stored but fewer members than that confirmed applying it in time.
 * Either way the change is not acknowledged; repeat it when the cluster is whole.
 *
 * <p>The extension's runtime makes it ({@link #tooFewMembers}, {@link #unconfirmed}: public for that).
 */
public final class MigrationQuorumException extends RuntimeException {

    private final int members;
    private final int required;
    private final transient MigrationState stored;

    private MigrationQuorumException(String message, int members, int required, MigrationState stored) {
        super(message);
        this.members = members;
        this.required = required;
        this.stored = stored;
    }

    /** Refused before anything was written: this member sees {@code members} of the {@code required}. */
    public static MigrationQuorumException tooFewMembers(int members, int required) {
        return new MigrationQuorumException("this member sees " + members + " member" + (members == 1 ? "" : "s")
                + " of the cluster, fewer than the " + required + " a migration change needs (quarkus.ketama.migration.min-members): "
                + "the cluster may be split and this the smaller side; nothing was changed", members, required, null);
    }

    /**
     * Refused before anything was written: this member sees {@code members} of the {@code expected}
     * members the cluster expects, fewer than {@code required}, their majority (the learned quorum).
     */
    public static MigrationQuorumException tooFewExpected(int members, int expected, int required) {
        return new MigrationQuorumException("this member sees " + members + " of the " + expected + " members the cluster expects, "
                + "fewer than the " + required + " (a majority) a migration change needs: the cluster may be split and this the "
                + "smaller side; nothing was changed. A member that stopped gracefully no longer counts; one that failed counts "
                + "until it returns, is removed (DELETE /q/ketama/quorum?member=<member>), or has been missing for "
                + "quarkus.ketama.migration.forget-failed-after (runtime/README, 'Faults')", members, required, null);
    }

    /** Stored as {@code stored}, but only {@code confirmed} members said they applied it within {@code waitedMillis}. */
    public static MigrationQuorumException unconfirmed(MigrationState stored, int confirmed, int required, long waitedMillis) {
        return unconfirmed(stored, confirmed, required, waitedMillis, false);
    }

    /**
     * As {@link #unconfirmed(MigrationState, int, int, long)}; {@code learned}: {@code required} is a
     * majority of the members the cluster expects, not {@code min-members}.
     */
    public static MigrationQuorumException unconfirmed(MigrationState stored, int confirmed, int required, long waitedMillis,
                                                       boolean learned) {
        return new MigrationQuorumException("the change was stored as generation " + stored.generation() + " but only " + confirmed
                + " member" + (confirmed == 1 ? "" : "s") + " confirmed applying it within " + waitedMillis + " ms, fewer than the "
                + required + " a change needs (" + (learned ? "a majority of the members the cluster expects"
                : "quarkus.ketama.migration.min-members") + "): the cluster may be split. It is not "
                + "acknowledged: when the sides merge it stands only if the other side made no change of its own (runtime/README, "
                + "'Faults'); check GET /q/ketama/migration and repeat it when the cluster is whole", confirmed, required, stored);
    }

    /** Members seen (refused) or members that confirmed (unconfirmed). */
    public int members() {
        return members;
    }

    /** The members a change needs: a majority of those the cluster expects, or {@code quarkus.ketama.migration.min-members}. */
    public int required() {
        return required;
    }

    /** Whether the change was written before it fell short (it may stand after a merge), or not at all. */
    public boolean stored() {
        return stored != null;
    }

    /** The state written before the change fell short, or null when nothing was written. */
    public MigrationState storedState() {
        return stored;
    }
}
