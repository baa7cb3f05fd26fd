package io.ketama.router.forwarding.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.ketama.quarkus.MemberAddress;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.Served;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A key sent to its owner through the cluster's executor service: on the receiving member it is
 * served by that member's {@link ForwardReceiver} (found in the Hazelcast user context), so the
 * owner's cache is the one read and filled. The executor runs tasks on its own bounded pool and
 * wants an answer when {@link #call} returns, so a miss holds one of its threads until the origin
 * answers (at most {@link #MAX_WAIT_SECONDS}).
 *
 * <p>Its {@link ChannelVersion} is the byte after the key (since version 2; a version-1 task has
 * none, and a version-1 member stops reading after the key, as Hazelcast lets it). Since version 3 a
 * flags byte follows ({@link #SPILLABLE}: the owner may spill it past its bound), which a version-2
 * member never reads; the sender sets it only for a member that publishes version 3 or later.
 */
final class HazelcastForwardTask implements java.util.concurrent.Callable<HazelcastForwardReply>,
        IdentifiedDataSerializable, HazelcastInstanceAware {

    static final long MAX_WAIT_SECONDS = 60;

    /** The flag of a task its receiver may spill. */
    static final int SPILLABLE = 1;
    /** Since version 4: a trace context (traceparent, tracestate strings) follows the flags. */
    static final int TRACED = 2;

    private String key;
    /** Since version 5: the whole request (its key is {@link #key}); null from an older sender. */
    private KeyRequest request;
    /** Whether its receiver may spill it (it said version 3 or later and set {@link #SPILLABLE}). */
    private boolean spillable;
    /** Null: untraced. */
    private io.ketama.router.tracing.TraceContext trace;
    /** The {@link ChannelVersion} of its sender. */
    private int version = ChannelVersion.CURRENT;
    private transient HazelcastInstance member;

    HazelcastForwardTask() {
    }

    HazelcastForwardTask(String key) {
        this(key, false);
    }

    HazelcastForwardTask(String key, boolean spillable) {
        this(key, spillable, null);
    }

    /** A task for {@code key} carrying {@code trace} (null: none; only to a member of version 4 or later). */
    HazelcastForwardTask(String key, boolean spillable, io.ketama.router.tracing.TraceContext trace) {
        this.key = key;
        this.spillable = spillable;
        this.trace = trace;
    }

    /** A task for {@code request} (version 5: to a member of version 5 or later only). */
    HazelcastForwardTask(KeyRequest request, boolean spillable, io.ketama.router.tracing.TraceContext trace) {
        this(request.key(), spillable, trace);
        this.request = request;
    }

    /** The request this task carries: the whole one from a sender of version 5 or later, the key alone from an older one. */
    KeyRequest request() {
        return request != null ? request : KeyRequest.of(key);
    }

    io.ketama.router.tracing.TraceContext trace() {
        return trace;
    }

    boolean spillable() {
        return spillable;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.member = hazelcastInstance;
    }

    @Override
    public HazelcastForwardReply call() {
        Object receiver = member == null ? null : member.getUserContext().get(ForwardReceiver.USER_CONTEXT_KEY);
        if (!(receiver instanceof ForwardReceiver r)) {
            return HazelcastForwardReply.failed(RemoteFailure.NOT_SERVING, "member "
                    + (member == null ? "?" : MemberAddress.of(member.getCluster().getLocalMember()))
                    + " serves no forwarded keys (no receiver in its user context)");
        }
        try {
            KeyRequest asked = request();
            Served served = r.serve(asked, spillable, trace).toCompletableFuture().get(MAX_WAIT_SECONDS, TimeUnit.SECONDS);
            if (version < ChannelVersion.HTTP_CACHING && !r.shareableWithOlderMembers(asked, served)) {
                return HazelcastForwardReply.failed(RemoteFailure.REFUSED, "this answer is for its own client only (private, "
                        + "varying, or not to be stored): a member of channel version " + ChannelVersion.HTTP_CACHING
                        + " or later is sent it", version);
            }
            return HazelcastForwardReply.served(served, version);
        } catch (ExecutionException e) {
            return HazelcastForwardReply.failed(RemoteFailure.of(e), RemoteFailure.message(e), version);
        } catch (TimeoutException e) {
            return HazelcastForwardReply.failed(RemoteFailure.FAILED, "no answer within " + MAX_WAIT_SECONDS + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return HazelcastForwardReply.failed(RemoteFailure.FAILED, "interrupted");
        }
    }

    @Override
    public int getFactoryId() {
        return HazelcastForwarding.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return HazelcastForwarding.TASK;
    }

    /** The version its sender speaks. */
    int version() {
        return version;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeString(key);
        out.writeByte(ChannelVersion.CURRENT);
        out.writeByte((spillable ? SPILLABLE : 0) | (trace != null ? TRACED : 0));
        if (trace != null) { // after the flags: a version-3 reader stops before it
            out.writeString(trace.traceparent());
            out.writeString(trace.tracestate());
        }
        // after the trace: a version-4 reader stops before it; every task says version 5, so every task carries it
        // (one made of a key alone carries the plain GET it stands for)
        KeyRequest asked = request();
        out.writeString(asked.request().method());
        out.writeString(asked.target());
        HazelcastForwarding.writeFields(out, asked.request().headers());
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        key = in.readString();
        version = HazelcastForwarding.readVersion(in);
        int flags = 0;
        if (version >= ChannelVersion.SPILLS) {
            try {
                flags = in.readByte();
            } catch (java.io.EOFException none) {
                flags = 0; // a sender that says 3 and sends no flags: nothing set
            }
        }
        spillable = (flags & SPILLABLE) != 0;
        if (version >= ChannelVersion.TRACES && (flags & TRACED) != 0) {
            String parent = in.readString();
            String state = in.readString();
            trace = parent == null || parent.length() > io.ketama.router.tracing.TraceContext.MAX_LENGTH
                    || (state != null && state.length() > io.ketama.router.tracing.TraceContext.MAX_LENGTH)
                    ? null : new io.ketama.router.tracing.TraceContext(parent, state);
        }
        if (version >= ChannelVersion.HTTP_CACHING) {
            String method = in.readString();
            String target = in.readString();
            io.ketama.router.caching.HttpFields fields = HazelcastForwarding.readFields(in, HazelcastForwarding.MAX_FIELDS);
            if (key == null || key.isEmpty() || method == null || method.isEmpty() || target == null || !target.startsWith("/")) {
                throw new java.io.IOException("a task without its key, method or target");
            }
            request = new KeyRequest(key, target, new io.ketama.router.caching.CacheRequest(method, fields));
        }
    }
}
