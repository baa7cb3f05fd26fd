package io.ketama.router.forwarding;

/** A forward's target is no longer a member of the cluster (the ring had not caught up yet). */
public final class MemberGoneException extends RuntimeException {

    public MemberGoneException(String message) {
        super(message);
    }
}
