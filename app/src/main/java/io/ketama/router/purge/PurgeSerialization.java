package io.ketama.router.purge;

import com.hazelcast.config.Config;
import com.hazelcast.config.ExecutorConfig;
import com.hazelcast.nio.serialization.DataSerializableFactory;

/** What purges need in a member's Hazelcast configuration before it starts: their payload's factory and their executor. */
public final class PurgeSerialization {

    /** Identifies the purge payloads' factory; "kp" in ASCII. */
    static final int FACTORY_ID = 0x6B70;
    static final int PURGE = 1;
    /** The executor purges run on, on the receiving member: apart from forwards, so a purge never waits behind them. */
    static final String EXECUTOR = "ketama-router-purge";

    private PurgeSerialization() {
    }

    public static void configure(Config config) {
        config.getSerializationConfig().addDataSerializableFactory(FACTORY_ID, factory());
        config.addExecutorConfig(new ExecutorConfig(EXECUTOR).setPoolSize(2).setQueueCapacity(10_000).setStatisticsEnabled(false));
    }

    static DataSerializableFactory factory() {
        return type -> type == PURGE ? new HazelcastPurgeTask() : null;
    }
}
