package io.ketama.load.faults;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Paced client load: {@code GET /cache/{key}} at a fixed rate, open loop (a request is sent at its
 * time whether or not earlier ones were answered, so a member that hangs shows as requests waiting,
 * not as a slower rate), keys uniform at random, entry members in turn so that every member takes
 * an equal share. Every request is recorded with its answer's headers.
 */
final class Load implements AutoCloseable {

    private static final Pattern PROBLEM_TYPE = Pattern.compile("\"type\"\\s*:\\s*\"[^\"]*?([a-z-]+)\"");
    /** Requests under way beyond which the generator sends no more and counts them as not sent: a bound on its own memory. */
    private static final int MAX_IN_FLIGHT = 5_000;

    private final HttpClient http;
    private final List<MemberRef> members;
    private final int rate;
    private final int keys;
    private final Duration timeout;
    private final LongSupplier clock;
    private final ConcurrentLinkedQueue<RequestRecord> records = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong notSent = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    Load(HttpClient http, List<MemberRef> members, int rate, int keys, Duration timeout, LongSupplier clock) {
        this.http = http;
        this.members = members;
        this.rate = rate;
        this.keys = keys;
        this.timeout = timeout;
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
                MemberRef entry = members.get((int) (sent % members.size()));
                send(entry, key(random.nextInt(keys)));
                sent++;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void send(MemberRef entry, String key) {
        if (inFlight.get() >= MAX_IN_FLIGHT) {
            notSent.incrementAndGet();
            return;
        }
        inFlight.incrementAndGet();
        long sentAt = clock.getAsLong();
        HttpRequest request = HttpRequest.newBuilder(URI.create(MemberHttp.base(entry) + "/cache/" + key)).timeout(timeout).GET().build();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((r, failure) -> {
            inFlight.decrementAndGet();
            long millis = clock.getAsLong() - sentAt;
            if (failure != null) {
                Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
                String error = cause instanceof HttpTimeoutException ? "timed out" : cause.getClass().getSimpleName() + ": " + cause.getMessage();
                records.add(new RequestRecord(sentAt, entry.index(), key, 0, millis, null, null, null, false, null, error));
                return;
            }
            String problem = null;
            if (r.statusCode() != 200) {
                Matcher type = PROBLEM_TYPE.matcher(r.body());
                problem = type.find() ? type.group(1) : null;
            }
            records.add(new RequestRecord(sentAt, entry.index(), key, r.statusCode(), millis,
                    r.headers().firstValue("X-Ketama-Owner").orElse(null), r.headers().firstValue("X-Ketama-Served-By").orElse(null),
                    r.headers().firstValue("X-Ketama-Cache").orElse(null), r.headers().firstValue("Retry-After").isPresent(), problem,
                    null));
        });
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
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(10_000);
        long end = clock.getAsLong() + timeout.toMillis() + 5_000;
        while (inFlight.get() > 0 && clock.getAsLong() < end) {
            Thread.sleep(100); // let requests under way end, each within its timeout
        }
    }
}
