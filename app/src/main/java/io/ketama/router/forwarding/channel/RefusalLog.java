package io.ketama.router.forwarding.channel;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.jboss.logging.Logger;

/**
 * What one forward channel refused from the network, logged so an operator sees it without the log
 * becoming the attack: the first refusal after a quiet {@link #INTERVAL_NANOS interval} is logged at
 * once with its detail (who, why), every other one is only counted, and one line per interval at
 * most says how many of each reason were refused since the line before. A million garbage frames
 * are a handful of lines. Thread-safe: every event loop of a channel shares one.
 */
public final class RefusalLog {

    private static final Logger LOG = Logger.getLogger(RefusalLog.class);
    /** At most one line per this long. */
    static final long INTERVAL_NANOS = 10_000_000_000L;

    /** Why something from the network was refused. */
    public enum Reason {
        /** A frame whose length field is out of range, or that could not be read. */
        MALFORMED_FRAME("malformed frames"),
        /** A request of a kind this member does not take. */
        UNKNOWN_KIND("requests of an unknown kind"),
        /** A key that is empty or longer than a client may send, or an ill-formed forward path. */
        BAD_KEY("ill-formed keys"),
        /** A version frame that says no version. */
        BAD_VERSION("ill-formed version frames"),
        /** No forward secret shown where one is required. */
        NO_SECRET("connections or requests without the forward secret"),
        /** A forward secret that is not this member's. */
        WRONG_SECRET("wrong forward secrets"),
        /** A frame begun and not finished in time, or a secret not shown in time (a slow-loris). */
        TOO_SLOW("connections too slow to send a frame"),
        /** An incomplete frame the channel had no room to hold (its bytes held for incomplete frames all taken). */
        NO_ROOM("incomplete frames without room to hold them");

        private final String label;

        Reason(String label) {
            this.label = label;
        }
    }

    private final String channel;
    private final Consumer<String> sink;
    private final LongSupplier clock;
    private final Map<Reason, LongAdder> sinceLine = new EnumMap<>(Reason.class);
    private final Map<Reason, LongAdder> total = new EnumMap<>(Reason.class);
    private final AtomicLong nextLineAt;

    /** Refusals of {@code channel} ("binary forward channel", say), logged at WARN. */
    public RefusalLog(String channel) {
        this(channel, LOG::warn, System::nanoTime);
    }

    /** Refusals of {@code channel} written to {@code sink}, timed by {@code clock} (nanoseconds). */
    public RefusalLog(String channel, Consumer<String> sink, LongSupplier clock) {
        this.channel = channel;
        this.sink = sink;
        this.clock = clock;
        for (Reason r : Reason.values()) {
            sinceLine.put(r, new LongAdder());
            total.put(r, new LongAdder());
        }
        this.nextLineAt = new AtomicLong(clock.getAsLong());
    }

    /** Counts a refusal of {@code reason} from {@code peer}, and logs it where a line is due. */
    public void refused(Reason reason, Object peer, String why) {
        sinceLine.get(reason).increment();
        total.get(reason).increment();
        lineIfDue(() -> "refused from " + peer + " (" + reason.label + "): " + why, false);
    }

    /** Logs what was counted since the last line, where a line is due and anything was. */
    public void flushIfDue() {
        lineIfDue(null, false);
    }

    /** Logs what was counted since the last line, due or not (the channel closes). */
    public void flush() {
        lineIfDue(null, true);
    }

    /** Refusals of {@code reason} since this log was made. */
    public long total(Reason reason) {
        return total.get(reason).sum();
    }

    private void lineIfDue(java.util.function.Supplier<String> detail, boolean anyway) {
        long now = clock.getAsLong();
        long due = nextLineAt.get();
        if ((now - due < 0 && !anyway) || !anyCounted()) {
            return; // not yet, or nothing to say (then the next refusal is logged at once)
        }
        if (!nextLineAt.compareAndSet(due, now + INTERVAL_NANOS)) {
            return; // another thread writes this interval's line
        }
        StringBuilder counts = new StringBuilder();
        long n = 0;
        for (Reason r : Reason.values()) {
            long c = sinceLine.get(r).sumThenReset();
            if (c > 0) {
                counts.append(counts.isEmpty() ? "" : ", ").append(c).append(' ').append(r.label);
                n += c;
            }
        }
        sink.accept(channel + ": " + (detail == null ? "" : detail.get() + "; ") + n + " refused since the last line ("
                + counts + "), at most one line per " + INTERVAL_NANOS / 1_000_000_000 + " s");
    }

    private boolean anyCounted() {
        for (LongAdder c : sinceLine.values()) {
            if (c.sum() > 0) {
                return true;
            }
        }
        return false;
    }
}
