package io.ketama.router.load;

import java.time.Duration;

/** Owner loads with a bound set by hand, for tests of what reads one (channels, chains). */
public final class FixedLoads {

    private FixedLoads() {
    }

    /** A member past its bound: every spillable request spills; final ones are served and counted. */
    public static OwnerLoad full() {
        return bounded(0, 0);
    }

    /** A member that admits {@code hard} spillable requests a window, hot ones up to {@code soft}. */
    public static OwnerLoad bounded(long hard, long soft) {
        OwnerLoad load = new OwnerLoad(new LoadSettings(true, 1.25, Duration.ofSeconds(10), 0), null);
        load.bound(new OwnerLoad.Bound(hard, soft));
        return load;
    }
}
