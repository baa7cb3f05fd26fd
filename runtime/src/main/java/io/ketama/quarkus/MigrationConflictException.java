package io.ketama.quarkus;

/**
 * A migration change was made against a generation that is no longer the cluster's: someone else
 * changed the state first. Nothing was changed; read the state again and decide anew.
 */
public final class MigrationConflictException extends RuntimeException {

    private final transient MigrationState current;
    private final long expectedGeneration;

    public MigrationConflictException(MigrationState current, long expectedGeneration) {
        super("the migration state is at generation " + current.generation() + ", not " + expectedGeneration
                + " as the change expected; nothing was changed");
        this.current = current;
        this.expectedGeneration = expectedGeneration;
    }

    /** The state that won. */
    public MigrationState current() {
        return current;
    }

    /** The generation the refused change was based on. */
    public long expectedGeneration() {
        return expectedGeneration;
    }
}
