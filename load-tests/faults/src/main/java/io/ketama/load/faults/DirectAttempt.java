package io.ketama.load.faults;

/**
 * One member the direct client sent a request of the load to (the one that answered, or one that
 * failed before it).
 *
 * @param sentAt when the request began, milliseconds since the checker started: the moment the
 *     client read its rings for the request's candidates
 * @param member the member's index
 */
record DirectAttempt(long sentAt, int member) {
}
