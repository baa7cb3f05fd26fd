package io.ketama.load.faults;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * Polls every member's view at a fixed period, all members at once, and keeps every round. A
 * member that has not answered by the round's deadline is recorded as silent for that round (a
 * paused member never answers; a slow one may answer late, and then counts as silent).
 */
final class Observer implements AutoCloseable {

    private final List<MemberRef> members;
    private final List<String> keys;
    private final MemberHttp http;
    private final LongSupplier clock;
    private final long periodMillis;
    private final ExecutorService pollers;
    private final List<PollRound> rounds = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    Observer(List<MemberRef> members, List<String> keys, MemberHttp http, LongSupplier clock, long periodMillis) {
        this.members = members;
        this.keys = keys;
        this.http = http;
        this.clock = clock;
        this.periodMillis = periodMillis;
        // one poller per member and round in flight, and room for a round whose pollers a silent member still holds
        this.pollers = Executors.newFixedThreadPool(members.size() * 3, r -> {
            Thread t = new Thread(r, "poller");
            t.setDaemon(true);
            return t;
        });
        this.thread = new Thread(this::run, "observer");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    List<PollRound> rounds() {
        return rounds;
    }

    /** The latest round, or null before the first. */
    PollRound latest() {
        return rounds.isEmpty() ? null : rounds.get(rounds.size() - 1);
    }

    private void run() {
        long next = clock.getAsLong();
        while (running) {
            long at = clock.getAsLong();
            Map<Integer, Future<MemberView>> polls = new LinkedHashMap<>();
            for (MemberRef m : members) {
                polls.put(m.index(), pollers.submit(() -> http.view(m, keys)));
            }
            Map<Integer, MemberView> views = new LinkedHashMap<>();
            long deadline = at + Math.max(2_000, periodMillis * 2);
            for (Map.Entry<Integer, Future<MemberView>> p : polls.entrySet()) {
                try {
                    views.put(p.getKey(), p.getValue().get(Math.max(1, deadline - clock.getAsLong()), TimeUnit.MILLISECONDS));
                } catch (TimeoutException e) {
                    p.getValue().cancel(true);
                    views.put(p.getKey(), MemberView.silent(p.getKey(), "no answer within " + (deadline - at) + " ms"));
                } catch (ExecutionException e) {
                    views.put(p.getKey(), MemberView.silent(p.getKey(), String.valueOf(e.getCause())));
                } catch (InterruptedException e) {
                    return;
                }
            }
            rounds.add(new PollRound(at, views));
            next += periodMillis;
            long wait = next - clock.getAsLong();
            if (wait < 0) {
                next = clock.getAsLong(); // fell behind (slow answers): the next round at once, not a burst
                wait = 0;
            }
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(10_000);
        pollers.shutdownNow();
    }

    /** The rounds so far, as a list that no later round changes. */
    List<PollRound> snapshot() {
        return new ArrayList<>(rounds);
    }
}
