package io.ketama.load.faults;

import java.util.List;

/**
 * When one fault was injected, healed and watched until, and the migration changes sent during it:
 * the window its figures are taken over.
 *
 * @param fault the fault
 * @param injectAt when its inject commands were answered (ms since the checker started)
 * @param healAt when its heal commands were answered
 * @param endAt when watching it ended (settled, or the most time allowed after the heal)
 * @param changes the migration changes sent during it, in the order sent
 * @param loadAverage the machine's load average when it was injected (1, 5, 15 minutes)
 */
public record FaultWindow(Fault fault, long injectAt, long healAt, long endAt, List<AdminChange> changes, String loadAverage) {

    public FaultWindow(Fault fault, long injectAt, long healAt, long endAt, List<AdminChange> changes) {
        this(fault, injectAt, healAt, endAt, changes, "");
    }

    public FaultWindow {
        if (!(injectAt <= healAt && healAt <= endAt)) {
            throw new IllegalArgumentException("a window runs inject <= heal <= end, was " + injectAt + ", " + healAt + ", " + endAt);
        }
        changes = List.copyOf(changes);
    }
}
