package io.ketama.router.caching;

/** The age of a response (RFC 9111 §4.2.3) and the {@code Age} field (§5.1). */
final class Ages {

    private Ages() {
    }

    /**
     * {@code corrected_initial_age = max(apparent_age, age_value + response_delay)} in ms, where
     * {@code apparent_age = max(0, response_time - date_value)} (0 without a valid {@code Date}).
     */
    static long initialAgeMillis(HttpFields headers, long requestTime, long responseTime) {
        long date = HttpDates.parse(headers.first("Date"));
        long apparent = date == HttpDates.INVALID ? 0 : Math.max(0, responseTime - date);
        long ageValue = ageValue(headers.first("Age"));
        long responseDelay = Math.max(0, responseTime - requestTime);
        long corrected = DeltaSeconds.millis(Math.max(0, ageValue)) + responseDelay;
        return Math.max(apparent, corrected);
    }

    /**
     * The seconds of the first {@code Age} line (§5.1 {@code Age = delta-seconds}; several lines or
     * members are an error, of which the first is read): its first list member, when all digits,
     * capped at 2^31; {@link DeltaSeconds#INVALID} otherwise ({@code abc}, {@code -7200},
     * {@code 7200.0}), which the caller ignores.
     */
    static long ageValue(String firstLine) {
        if (firstLine == null) {
            return DeltaSeconds.INVALID;
        }
        int comma = firstLine.indexOf(',');
        String member = (comma < 0 ? firstLine : firstLine.substring(0, comma)).strip();
        return DeltaSeconds.parse(member);
    }

    /** The {@code Age} value of an age: whole seconds, rounded down, at most 2147483648 (§1.2.2). */
    static String format(long ageMillis) {
        return Long.toString(Math.min(DeltaSeconds.MAX, Math.max(0, ageMillis) / 1000));
    }
}
