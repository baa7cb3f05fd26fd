package io.ketama.load.faults;

import java.util.Locale;

/** The faults the harness injects; each one's name is its word on faults.sh's command line. */
public enum FaultKind {
    /** One member's cluster traffic dropped both ways, to and from every other member. */
    ISOLATE,
    /** A majority and a minority that drop each other's cluster traffic (3|2 of five). */
    SPLIT,
    /** Two members drop each other's traffic; both still reach every other member. */
    PARTIAL,
    /** SIGSTOP of one member, SIGCONT after the pause. */
    PAUSE,
    /** One member's cgroup held to a few per cent of one CPU. */
    SLOW,
    /** kill -9 of one member, started again after the hold. */
    KILL,
    /** One member isolated for less than the failure timeout: nothing should change. */
    BLIP;

    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static FaultKind parse(String word) {
        for (FaultKind k : values()) {
            if (k.word().equals(word.trim())) {
                return k;
            }
        }
        throw new IllegalArgumentException("no fault '" + word + "'; faults: isolate, split, partial, pause, slow, kill, blip");
    }
}
