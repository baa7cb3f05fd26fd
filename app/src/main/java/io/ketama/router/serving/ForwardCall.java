package io.ketama.router.serving;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import java.io.Serial;
import java.io.Serializable;
import java.util.concurrent.Callable;

/**
 * A key sent to its owner through the cluster's executor service (no port beyond Hazelcast's
 * own): on the target member it looks up that member's {@link KeyServer} in the user context and
 * serves the key there, so the owner's cache is the one read and filled.
 */
public final class ForwardCall implements Callable<Served>, Serializable, HazelcastInstanceAware {

    @Serial
    private static final long serialVersionUID = 1L;

    private final String key;
    private transient HazelcastInstance member;

    public ForwardCall(String key) {
        this.key = key;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.member = hazelcastInstance;
    }

    /**
     * @throws NotServingException when the member runs no key server (yet, or any more)
     * @throws OriginUnavailableException when the key is not cached there and the origin gave no answer
     */
    @Override
    public Served call() {
        Object server = member == null ? null : member.getUserContext().get(KeyServer.USER_CONTEXT_KEY);
        if (!(server instanceof KeyServer keyServer)) {
            throw new NotServingException("member " + (member == null ? "?" : member.getCluster().getLocalMember().getAddress())
                    + " has no key server registered in its user context under " + KeyServer.USER_CONTEXT_KEY);
        }
        return keyServer.serve(key);
    }
}
