package io.ketama.quarkus.runtime;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;

/**
 * The thread of a {@link ClusterMigration} that follows the cluster's changes, held back until a
 * latch is released: until then that member applies no change another member makes (no entry
 * event and no re-read reaches it), exactly as a member that has not yet heard of a change. Its
 * own changes it applies at once, as any member does.
 */
final class HeldFollower {

    private HeldFollower() {
    }

    /** A follower thread factory whose thread starts following only once {@code released} is counted down. */
    static ThreadFactory until(CountDownLatch released) {
        return r -> {
            Thread t = new Thread(() -> {
                try {
                    released.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // closing: the executor's worker sees the shutdown and ends
                }
                r.run();
            }, "ketama-migration-held");
            t.setDaemon(true);
            return t;
        };
    }
}
