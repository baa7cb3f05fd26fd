package io.ketama.router.forwarding;

/**
 * The two members did not understand each other on a forward channel: the member refused a
 * request it would not read ({@link io.ketama.router.forwarding.channel.RemoteFailure#REFUSED}), or answered with a kind of reply this
 * member does not know (a newer member that broke {@link io.ketama.router.forwarding.channel.ChannelVersion}'s rule). It says nothing of
 * the member's health and asking it again would end the same way, so its guard neither retries it
 * nor counts it against the member's breaker; the next candidate serves.
 */
public final class ForwardRefusedException extends ForwardFailedException {

    public ForwardRefusedException(String message) {
        super(message);
    }
}
