package io.ketama.router.forwarding;

/**
 * The member asked to serve a key was past its bound ({@code io.ketama.router.load.OwnerLoad}) and
 * spilled the request: it served nothing, and the entry sends the key on to its next candidate as a
 * final request, which is never spilled again. Not a failure of the member: its guard neither retries
 * it nor counts it against its breaker, and the answer does not count it as a failover. Without a stack
 * trace: it is an answer, not an accident.
 */
public final class SpilledException extends RuntimeException {

    public SpilledException(String message) {
        super(message, null, false, false);
    }
}
