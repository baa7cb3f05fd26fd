package io.ketama.client;

/**
 * What a {@link DirectClient} did since it was made.
 *
 * @param answered    requests a member answered
 * @param byOwner     of those, answered by the key's owner on this client's rings (no forward on the members
 *                    unless the owner spilled)
 * @param failedOver  attempts that failed (connection, timeout, a {@code 503} with Retry-After) before another candidate answered
 * @param heldOff     candidates skipped because their breaker held them off
 * @param spilled     answers the owner spilled to its next candidate
 * @param unanswered  requests no candidate answered ({@link NoMemberAnsweredException})
 */
public record DirectClientCounts(long answered, long byOwner, long failedOver, long heldOff, long spilled, long unanswered) {
}
