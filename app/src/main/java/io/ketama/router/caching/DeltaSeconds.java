package io.ketama.router.caching;

/**
 * {@code delta-seconds = 1*DIGIT} (RFC 9111 §1.2.2): a non-negative whole number of seconds. A value
 * larger than the largest a cache can represent is taken as 2147483648 (2^31), as §1.2.2 asks, so a
 * long never overflows however many digits arrive, and seconds times 1000 always fits.
 */
final class DeltaSeconds {

    /** 2^31 s: the cap §1.2.2 puts on every delta-seconds value. */
    static final long MAX = 2_147_483_648L;
    /** A directive that is not there. */
    static final long ABSENT = -1;
    /** A directive that is there with a value that is not delta-seconds. */
    static final long INVALID = -2;

    private DeltaSeconds() {
    }

    /**
     * The seconds of {@code text[from, to)}, capped at {@link #MAX}; {@link #INVALID} when empty or
     * when any char is not an ASCII digit (a sign, a decimal point, a quote, a space).
     */
    static long parse(CharSequence text, int from, int to) {
        if (from >= to) {
            return INVALID;
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return INVALID;
            }
            if (value < MAX) {
                value = Math.min(MAX, value * 10 + (c - '0'));
            }
        }
        return value;
    }

    static long parse(String text) {
        return text == null ? INVALID : parse(text, 0, text.length());
    }

    /** Seconds as milliseconds; never overflows (at most 2^31 s). */
    static long millis(long seconds) {
        return seconds * 1000;
    }
}
