package io.ketama.load.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Paced client load: {@code GET /cache/{key}} at a fixed rate, open loop (a request is sent at its
 * time whether or not earlier ones were answered, so a member that hangs shows as requests waiting,
 * not as a slower rate), keys uniform at random. Every request is recorded with how it ended; how a
 * request reaches the cluster is the subclass's: {@link EntryLoad} enters on every member in turn,
 * {@link DirectClientLoad} goes through the direct client to each key's owner.
 */
abstract class Load implements AutoCloseable {

    /** Requests under way beyond which the generator sends no more and counts them as not sent: a bound on its own memory. */
    private static final int MAX_IN_FLIGHT = 5_000;

    private final int rate;
    private final int keys;
    final LongSupplier clock;
    private final ConcurrentLinkedQueue<RequestRecord> records = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong notSent = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    Load(int rate, int keys, LongSupplier clock) {
        this.rate = rate;
        this.keys = keys;
        this.clock = clock;
        this.thread = new Thread(this::run, "load");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    static String key(int n) {
        return "fault-key-" + n;
    }

    private void run() {
        SplittableRandom random = new SplittableRandom(25);
        long start = clock.getAsLong();
        long sent = 0;
        while (running) {
            long due = (clock.getAsLong() - start) * rate / 1000;
            while (sent < due && running) {
                String key = key(random.nextInt(keys));
                if (inFlight.get() >= MAX_IN_FLIGHT) {
                    notSent.incrementAndGet();
                } else {
                    inFlight.incrementAndGet();
                    send(sent, key);
                }
                sent++;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Sends request number {@code n} (from 0) for {@code key} without waiting for it; {@link #ended}
     * is called once it has ended.
     */
    abstract void send(long n, String key);

    /** The longest a request under way may yet take: how long {@link #close()} waits for them. */
    abstract long longestMillis();

    final void ended(RequestRecord record) {
        records.add(record);
        inFlight.decrementAndGet();
    }

    /** Every request answered or given up so far. */
    List<RequestRecord> snapshot() {
        return new ArrayList<>(records);
    }

    long notSent() {
        return notSent.get();
    }

    int inFlight() {
        return inFlight.get();
    }

    @Override
    public void close() throws Exception {
        running = false;
        thread.interrupt();
        thread.join(10_000);
        long end = clock.getAsLong() + longestMillis() + 5_000;
        while (inFlight.get() > 0 && clock.getAsLong() < end) {
            Thread.sleep(100); // let requests under way end, each within its time limit
        }
    }
}
