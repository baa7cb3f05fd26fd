package io.ketama.router.faults;

import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Waits for the members' views to reach a state and stay there, and says how long that took. */
final class Settle {

    private Settle() {
    }

    /**
     * Reads the views until {@code p} has held for {@code stable} without a break and without any
     * member rebuilding its rings meanwhile (a rebuild loop can pass any single look); returns the
     * milliseconds from the call to the start of that run. Fails after {@code deadline} with the last
     * views and how many rebuilds each member made while it waited.
     */
    static long within(Supplier<List<MemberState>> read, Predicate<List<MemberState>> p, Duration stable, Duration deadline, String what)
            throws InterruptedException {
        long start = System.nanoTime();
        List<MemberState> first = read.get();
        List<MemberState> states = first;
        Long runStart = null;
        List<Long> runRebuilds = null;
        while (true) {
            long now = System.nanoTime();
            if (p.test(states)) {
                List<Long> rebuilds = states.stream().map(MemberState::rebuild).toList();
                if (runStart == null || !rebuilds.equals(runRebuilds)) {
                    runStart = now;
                    runRebuilds = rebuilds;
                } else if (now - runStart >= stable.toNanos()) {
                    return (runStart - start) / 1_000_000;
                }
            } else {
                runStart = null;
            }
            if (now - start > deadline.toNanos()) {
                StringBuilder rebuilds = new StringBuilder();
                for (int i = 0; i < states.size(); i++) {
                    if (states.get(i).answered() && first.get(i).answered()) {
                        rebuilds.append(rebuilds.length() == 0 ? "" : ", ").append("member ").append(states.get(i).member()).append(' ')
                                .append(states.get(i).rebuild() - first.get(i).rebuild());
                    }
                }
                throw new AssertionError("not within " + deadline + ": " + what + " for " + stable + ". Ring rebuilds while waiting: "
                        + rebuilds + " (a number that keeps growing is a rebuild loop). Last views:" + MemberState.describe(states));
            }
            Thread.sleep(250);
            states = read.get();
        }
    }
}
