package io.ketama.load.faults;

import java.util.List;

/**
 * A purge sent to one side of a partition ({@code POST /q/ketama/purge} with the admin token), and
 * what every member served for its keys once the cluster healed and settled: an answer whose
 * {@code Age} says it was fetched from the origin more than {@link #SLACK_MILLIS} before the purge was
 * sent is a purged answer served again.
 *
 * @param fault        the fault's label
 * @param member       where it was sent
 * @param side         {@code majority} or {@code minority}
 * @param sentAtEpoch  when it was sent (epoch ms)
 * @param status       the HTTP status (0: no answer): 200 every member confirmed, 202 some did not
 * @param answer       the answer's body, shortened
 * @param keys         the keys it named
 * @param checked      answers read after the heal (every key on every member)
 * @param servedPurged the answers after the heal that were fetched before the purge, as {@code m3 key age 40 s HIT}
 */
public record PurgeCheck(String fault, int member, String side, long sentAtEpoch, int status, String answer, List<String> keys,
                         int checked, List<String> servedPurged) {

    /** {@code Age} counts whole seconds: an answer fetched this close before the purge cannot be told from one fetched after it. */
    static final long SLACK_MILLIS = 2_000;

    public PurgeCheck {
        keys = List.copyOf(keys);
        servedPurged = List.copyOf(servedPurged);
    }

    /** Whether a purged answer was served after the heal (only a purge that was answered counts). */
    public boolean violated() {
        return (status == 200 || status == 202) && !servedPurged.isEmpty();
    }

    /** Whether an answer {@code ageSeconds} old, read at {@code readAtEpoch}, was fetched before the purge (by more than the slack). */
    boolean fetchedBefore(long readAtEpoch, long ageSeconds) {
        return readAtEpoch - ageSeconds * 1000 < sentAtEpoch - SLACK_MILLIS;
    }
}
