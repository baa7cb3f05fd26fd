package io.ketama.router.forwarding.hazelcast;

import com.hazelcast.config.Config;
import com.hazelcast.config.ExecutorConfig;
import com.hazelcast.internal.util.ConcurrencyUtil;
import com.hazelcast.nio.serialization.DataSerializableFactory;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.ketama.router.forwarding.channel.ChannelVersion;
import java.util.concurrent.ForkJoinPool;

/**
 * What the Hazelcast transport needs in a member's configuration before it starts: the factory
 * of its {@link IdentifiedDataSerializable} payloads (no Java serialization on the way), a
 * bounded executor for the forwards it receives, and completions that start no threads.
 */
public final class HazelcastForwarding {

    /** The executor service forwarded keys are served on, on the receiving member. */
    public static final String EXECUTOR = "ketama-router-forward";
    /** Identifies the payload factory; "kr" in ASCII. */
    static final int FACTORY_ID = 0x6B72;
    static final int TASK = 1;
    static final int REPLY = 2;
    /** Since channel version 5: {@link HazelcastInvalidateTask}. */
    static final int INVALIDATE = 3;

    private HazelcastForwarding() {
    }

    /**
     * The ranges of {@link #configure}'s settings ({@code ketama.router.forward.hazelcast.*}).
     *
     * @throws IllegalArgumentException naming the setting below {@code ketama.router.forward}, the value and the range
     */
    public static void check(int threads, int queueCapacity) {
        if (threads < 1 || threads > 1024) {
            throw new IllegalArgumentException(".hazelcast.threads: must be in 1..1024, was " + threads);
        }
        if (queueCapacity < 1) {
            throw new IllegalArgumentException(".hazelcast.queue-capacity: must be >= 1, was " + queueCapacity);
        }
    }

    /**
     * Registers the payload factory and sizes the forward executor.
     *
     * @param threads       threads serving forwarded keys (a miss holds one until the origin answers)
     * @param queueCapacity forwards that may wait for one of them; past it, Hazelcast refuses the forward
     */
    public static void configure(Config config, int threads, int queueCapacity) {
        check(threads, queueCapacity);
        config.getSerializationConfig().addDataSerializableFactory(FACTORY_ID, factory());
        completeWithoutNewThreads();
        config.addExecutorConfig(new ExecutorConfig(EXECUTOR).setPoolSize(threads).setQueueCapacity(queueCapacity)
                .setStatisticsEnabled(false));
    }

    /**
     * Every future Hazelcast hands out (an executor submission's included) completes itself through
     * Hazelcast's default async executor, which is the common pool or, where that has fewer than 2
     * threads (any 2-CPU machine), a new thread per completion: measured, two threads started per
     * forward. There completions run on {@link Completions}' two threads instead. Not on the thread
     * that completed the invocation ({@code CALLER_RUNS}, as before): that is Hazelcast's response
     * thread, on which Hazelcast refuses invocations, and its own continuations invoke. Listener
     * registration on a member that joins a cluster goes member by member, each step in the
     * completion of the one before, and failed there with {@code IllegalThreadStateException}: every
     * member but the first lost its entry events. JVM-wide: Hazelcast has one such executor.
     */
    static void completeWithoutNewThreads() {
        completeWithoutNewThreads(ForkJoinPool.getCommonPoolParallelism());
    }

    /** {@link #completeWithoutNewThreads()} as on a machine whose common pool has {@code commonPoolParallelism} threads. */
    static void completeWithoutNewThreads(int commonPoolParallelism) {
        if (commonPoolParallelism < 2) {
            ConcurrencyUtil.setDefaultAsyncExecutor(Completions.EXECUTOR);
        }
    }

    /**
     * The {@link ChannelVersion} byte a payload ends with, or {@link ChannelVersion#UNSAID} where it
     * ends before it (a version-1 member's payload).
     */
    static int readVersion(com.hazelcast.nio.ObjectDataInput in) throws java.io.IOException {
        try {
            return Math.max(ChannelVersion.UNSAID, in.readByte() & 0xFF);
        } catch (java.io.EOFException versionOne) {
            return ChannelVersion.UNSAID;
        }
    }

    /** Writes {@code fields}: their count, then each name and value. */
    static void writeFields(com.hazelcast.nio.ObjectDataOutput out, io.ketama.router.caching.HttpFields fields) throws java.io.IOException {
        out.writeInt(fields.size());
        for (int i = 0; i < fields.size(); i++) {
            out.writeString(fields.name(i));
            out.writeString(fields.value(i));
        }
    }

    /**
     * Reads what {@link #writeFields} wrote, at most {@code max} fields (a count past it, or a field
     * without a name, is a malformed payload).
     */
    static io.ketama.router.caching.HttpFields readFields(com.hazelcast.nio.ObjectDataInput in, int max) throws java.io.IOException {
        int count = in.readInt();
        if (count < 0 || count > max) {
            throw new java.io.IOException("a payload with " + count + " fields; at most " + max + " are taken");
        }
        io.ketama.router.caching.HttpFields.Builder fields = io.ketama.router.caching.HttpFields.builder(count);
        for (int i = 0; i < count; i++) {
            String name = in.readString();
            String value = in.readString();
            if (name == null || name.isEmpty() || value == null) {
                throw new java.io.IOException("a field without a name or value");
            }
            fields.add(name, value);
        }
        return fields.build();
    }

    /** The most fields a payload may carry: a request's or an answer's header block, generously. */
    static final int MAX_FIELDS = 10_000;

    static DataSerializableFactory factory() {
        return type -> switch (type) {
            case TASK -> new HazelcastForwardTask();
            case REPLY -> new HazelcastForwardReply();
            case INVALIDATE -> new HazelcastInvalidateTask();
            default -> null;
        };
    }
}
