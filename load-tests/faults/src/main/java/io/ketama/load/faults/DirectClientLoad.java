package io.ketama.load.faults;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.client.DirectAnswer;
import io.ketama.client.DirectClient;
import io.ketama.client.NoMemberAnsweredException;
import io.ketama.core.HashStyle;
import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.MemberInfo;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.Selection;
import io.ketama.quarkus.runtime.ClientFollower;
import io.ketama.quarkus.runtime.RingSettings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;

/**
 * The load through the direct client ({@code --direct-cluster}): each request sent by
 * {@link DirectClient} to its key's owner on the client's rings, which a {@link ClientFollower}
 * builds from a Hazelcast client of the members' cluster addresses, failing over as the direct
 * client does. A request has no entry member (recorded as entry 0): every one is judged as
 * connected, since some member the client can reach can serve every key in every fault.
 *
 * <p>Beside the requests it records every member each request was sent to ({@link DirectAttempt}) and
 * the client's rings whenever they change ({@link ClientRingSample}, looked at every 20 ms, each
 * dated when it was built): what
 * "no request to a member that left the rings" is judged on ({@link DirectFigures}).
 */
final class DirectClientLoad extends Load {

    /** The longest one request can take: three candidates, each up to the 1 s connect and the 2 s attempt, and a probe. */
    private static final long LONGEST_MILLIS = 4 * 3_000;

    private final HazelcastInstance hazelcast;
    private final ClientFollower follower;
    private final DirectClient direct;
    private final Map<String, Integer> byHost = new HashMap<>();
    private final Map<String, Integer> byAddress = new HashMap<>();
    private final ExecutorService senders;
    private final ConcurrentLinkedQueue<DirectAttempt> attempts = new ConcurrentLinkedQueue<>();
    private final List<ClientRingSample> samples = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Thread sampler;
    private volatile boolean sampling = true;

    /**
     * Connects to {@code cluster} at the members' cluster addresses and waits (at most 60 s) until the
     * client's rings hold every member.
     */
    DirectClientLoad(String cluster, List<MemberRef> members, int rate, int keys, LongSupplier clock) throws InterruptedException {
        super(rate, keys, clock);
        ClientConfig config = new ClientConfig();
        config.setClusterName(cluster);
        for (MemberRef m : members) {
            config.getNetworkConfig().addAddress(m.clusterAddress());
            byAddress.put(m.clusterAddress(), m.index());
            byHost.put(m.clusterAddress().substring(0, m.clusterAddress().lastIndexOf(':')), m.index());
        }
        config.setProperty("hazelcast.phone.home.enabled", "false");
        this.hazelcast = HazelcastClient.newHazelcastClient(config);
        // the service's ring settings (its application.properties): the members' placement
        this.follower = ClientFollower.follow(hazelcast, new RingSettings(HashStyle.PINGORA, 16));
        this.direct = new DirectClient(follower.selector());
        long end = clock.getAsLong() + 60_000;
        while (follower.selector().snapshot().members().size() < members.size()) {
            if (clock.getAsLong() > end) {
                follower.close();
                hazelcast.shutdown();
                throw new IllegalStateException("the direct client's rings hold " + follower.selector().snapshot().members().size() + " of "
                        + members.size() + " members after 60 s");
            }
            Thread.sleep(100);
        }
        this.senders = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(null, r, "direct-sender", 256 * 1024);
            t.setDaemon(true);
            return t;
        });
        this.sampler = new Thread(this::sample, "direct-rings");
        sampler.setDaemon(true);
        sampler.start();
    }

    @Override
    void send(long n, String key) {
        senders.execute(() -> {
            long sentAt = clock.getAsLong();
            Selection owner = follower.selector().select(key);
            String ownerAddress = owner.found() ? MemberAddress.of(owner.owner()) : null;
            try {
                DirectAnswer a = direct.get(key);
                for (String other : a.sentToOthers()) {
                    attempts.add(new DirectAttempt(sentAt, memberOf(other)));
                }
                attempts.add(new DirectAttempt(sentAt, memberOf(a.member())));
                var h = a.response().headers();
                ended(new RequestRecord(sentAt, 0, key, a.status(), clock.getAsLong() - sentAt, ownerAddress,
                        h.firstValue("X-Ketama-Served-By").orElse(null), h.firstValue("X-Ketama-Cache").orElse(null),
                        h.firstValue("Retry-After").isPresent(), EntryLoad.problemType(a.status(), new String(a.body(), StandardCharsets.UTF_8)),
                        null));
            } catch (NoMemberAnsweredException e) {
                for (String tried : e.sentTo()) {
                    attempts.add(new DirectAttempt(sentAt, memberOf(tried)));
                }
                ended(new RequestRecord(sentAt, 0, key, 0, clock.getAsLong() - sentAt, ownerAddress, null, null, false, null,
                        e.getMessage().replace('\n', ' ')));
            } catch (RuntimeException e) {
                ended(new RequestRecord(sentAt, 0, key, 0, clock.getAsLong() - sentAt, ownerAddress, null, null, false, null, e.toString()));
            }
        });
    }

    /** The index of the member at endpoint {@code host:port} (its HTTP port on its cluster address), 0 when unknown. */
    private int memberOf(String endpoint) {
        Integer i = byHost.get(endpoint.substring(0, endpoint.lastIndexOf(':')));
        return i == null ? 0 : i;
    }

    private void sample() {
        RingSnapshot last = null;
        while (sampling) {
            RingSnapshot now = follower.selector().snapshot();
            if (now != last) {
                Set<Integer> on = new HashSet<>();
                for (MemberInfo m : now.members()) {
                    on.add(byAddress.getOrDefault(MemberAddress.of(m.member()), 0));
                }
                // when the rings were built, on the checker's clock: a request may use them before this thread sees them
                long builtAgo = Math.max(0, System.currentTimeMillis() - now.builtAt().toEpochMilli());
                samples.add(new ClientRingSample(clock.getAsLong() - builtAgo, on));
                last = now;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Every member sent a request so far. */
    List<DirectAttempt> attempts() {
        return new ArrayList<>(attempts);
    }

    /** The client's rings, one sample per change, in time order. */
    List<ClientRingSample> ringSamples() {
        return new ArrayList<>(samples);
    }

    /** The direct client's own counts, for the log. */
    String counts() {
        return direct.counts().toString();
    }

    RingSelector selector() {
        return follower.selector();
    }

    @Override
    long longestMillis() {
        return LONGEST_MILLIS;
    }

    @Override
    public void close() throws Exception {
        try {
            super.close();
        } finally {
            sampling = false;
            if (sampler != null) {
                sampler.interrupt();
            }
            if (senders != null) {
                senders.shutdownNow();
            }
            follower.close();
            hazelcast.shutdown();
        }
    }
}
