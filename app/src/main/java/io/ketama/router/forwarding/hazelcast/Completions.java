package io.ketama.router.forwarding.hazelcast;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where Hazelcast's futures complete on a machine whose common pool is too small to lend them
 * threads ({@link HazelcastForwarding#completeWithoutNewThreads()}): two named daemon threads,
 * started with the first completions and kept while completions come (they end after a minute
 * without one, so the executor of an application restarted in dev mode leaves nothing behind). A
 * completion is short (this app's hand over to an event loop; Hazelcast's own start the next step
 * of a chain), so two threads keep up, and they are not Hazelcast's response thread, on which
 * Hazelcast refuses to invoke.
 */
final class Completions {

    static final int THREADS = 2;
    static final long IDLE_SECONDS = 60;

    static final Executor EXECUTOR = executor();

    private Completions() {
    }

    private static Executor executor() {
        AtomicInteger made = new AtomicInteger();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(THREADS, THREADS, IDLE_SECONDS, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), task -> {
                    Thread t = new Thread(task, "ketama-hz-completion-" + made.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }
}
