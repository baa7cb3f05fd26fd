package io.ketama.quarkus;

import io.ketama.core.HashStyle;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Configuration of the ketama extension. Every key can be set as an environment variable: upper
 * case, with {@code .} and {@code -} turned into {@code _} ({@code quarkus.ketama.migration.v2-share}
 * is {@code QUARKUS_KETAMA_MIGRATION_V2_SHARE}). Invalid values stop start-up with a message
 * naming the key and what is allowed.
 */
@ConfigMapping(prefix = "quarkus.ketama")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface KetamaConfig {

    /**
     * Name of this member's data centre (non-blank). Published to the other members; the
     * migration allowlist ({@code quarkus.ketama.migration.datacenters}) is checked against it.
     */
    @WithDefault("default")
    String datacenter();

    /**
     * How a member address becomes a ring identity when the member has no node id: {@code nginx}
     * (the text of an nginx {@code server} line: {@code host}, 0x00, {@code port}) or {@code pingora}
     * (the canonical socket address, as pingora-ketama hashes it). Every member must agree.
     * <p>
     * {@code spymemcached}, {@code spymemcached-weighted} or {@code hashring} make the v1 ring the
     * one those memcached clients build over the same servers (MD5 points and keys, their point
     * counts, ties and failover order), so a cluster can take over a placement its clients already
     * use, then migrate to v2 as usual. The server text is the member's node id when it has one
     * (write it as the clients name the server, e.g. {@code 10.0.0.1:11211}), else its address.
     * The members are ordered by that text, not by the clients' server list, so a point two servers
     * share (a 100-server ring has one with a probability of about 3 %) may go to the other of the two.
     * <p>
     * The rest of the ketama family works the same way: {@code twemproxy-fnv1a-64},
     * {@code twemproxy-md5}, {@code libmemcached-weighted}, {@code libmemcached-ketama},
     * {@code libmemcached-ketama-md5}, {@code libmemcached-spymemcached}, {@code dubbo} and
     * {@code xmemcached} make v1 the ring of twemproxy 0.5.0, libmemcached 1.1.4, Dubbo 3.3.5's
     * {@code ConsistentHashLoadBalance} or xmemcached 2.4.8 (each one's rules: core's
     * {@code HashStyle}). Give each member, as its node id, what that program names the server by:
     * a twemproxy server's name (or {@code host:port}), {@code host:port} for libmemcached and
     * Dubbo, {@code IP:port} for xmemcached. twemproxy and xmemcached give a shared point by the
     * servers' names, so their rings are kept exactly whatever the order; spymemcached, hashring,
     * libmemcached and Dubbo give it by their server list's order: give each member its place in
     * that list ({@code quarkus.ketama.member.list-index}) and theirs are kept exactly too.
     * twemproxy's {@code hash_tag} is {@code quarkus.ketama.hash-tag}, Dubbo's {@code hash.nodes}
     * is {@code quarkus.ketama.hash-nodes}.
     */
    @WithDefault("pingora")
    HashStyle hashStyle();

    /**
     * twemproxy's {@code hash_tag} with {@code hash-style=twemproxy-fnv1a-64} or
     * {@code twemproxy-md5}: two ASCII characters (e.g. <code>{}</code>); a key containing both
     * is placed by the part between them alone ({@code user:{42}:cart} by {@code 42}), so related
     * keys share an owner as they did behind twemproxy. Only on the v1 ring: keys the migration
     * moves to v2 are placed by the whole key. Unset: the whole key. Any other style refuses it at
     * start-up. Every member must agree.
     */
    Optional<String> hashTag();

    /**
     * Dubbo's {@code hash.nodes} with {@code hash-style=dubbo}: points per provider, from 4,
     * rounded down to a multiple of 4 as Dubbo does (50 gives 48). Unset: Dubbo's 160. Any
     * other style refuses it at start-up. Every member must agree.
     */
    OptionalInt hashNodes();

    /**
     * What this application is to the cluster: {@code member} (an embedded Hazelcast member, on the
     * rings, with the admin plane) or {@code client} (the extension makes a Hazelcast client of
     * {@code hazelcast.cluster-name} at {@code hazelcast.members}; its {@code RingSelector} follows
     * the members' rings, migration state and serving states, and it is on no ring and has no admin
     * plane). An application that produces its own {@code HazelcastInstance} gets the role of that
     * instance whatever this says.
     */
    @WithDefault("member")
    Role role();

    /** {@link #role()}. */
    enum Role {
        /** An embedded Hazelcast member. */
        MEMBER,
        /** A Hazelcast client of the cluster. */
        CLIENT
    }

    /**
     * How this member is placed on the rings.
     */
    Member member();

    /**
     * The v1 to v2 migration.
     */
    Migration migration();

    /**
     * The v2 ring.
     */
    V2 v2();

    /**
     * Ring rebuilds on membership changes.
     */
    Rebuild rebuild();

    /**
     * The embedded Hazelcast member (ignored when the application produces its own
     * {@code HazelcastInstance} bean). Hazelcast's own configuration comes first: a
     * {@code hazelcast.xml}/{@code .yaml} file found as Hazelcast finds it (or the extension's base
     * when there is none), then Hazelcast's {@code HZ_*} environment overrides, then these keys,
     * each only when set. In tests the member forms a cluster of its own unless
     * {@code cluster-name} or {@code members} is set here.
     */
    Hazelcast hazelcast();

    /**
     * The admin plane on the management interface ({@code /q/ketama/migration}).
     */
    Admin admin();

    /**
     * Leaving the rings on a graceful stop.
     */
    Drain drain();

    /**
     * Consistent hashing with bounded loads: {@link RingSelector#selectBounded}.
     */
    BoundedLoad boundedLoad();

    /**
     * Consistent hashing with bounded loads (Mirrokni, Thorup, Zadimoghaddam): a key goes to the
     * first member in its failover order whose load stays within {@code factor} × the mean load per
     * unit of weight, so a member carries at most about {@code factor} × its share however skewed the
     * keys. The extension's plain {@code select} never applies it; {@link RingSelector#selectBounded}
     * does when enabled, with the loads the application counts. The cache-routing service enables it
     * and enforces it for the whole cluster's load (see its README).
     */
    interface BoundedLoad {

        /**
         * Whether {@link RingSelector#selectBounded} applies the bound; {@code false}: it answers the
         * plain owner, as {@code select} does.
         */
        @WithDefault("false")
        boolean enabled();

        /**
         * The balance factor {@code c}: a member of weight {@code w} carries at most
         * {@code ⌈c × (L + 1) × w / W⌉} of the load {@code L} of all members of total weight
         * {@code W}. Above 1.0 (at 1.0 no member would have room) and at most 100; 1.25 lets the
         * busiest member carry 25 % more than the mean. Lower values spill more keys past their
         * owner (a cache there misses once per spilled key), higher ones let the busiest member
         * carry more. HAProxy writes the same setting as a percentage ({@code hash-balance-factor 125}).
         */
        @WithDefault("1.25")
        double factor();
    }

    /** How this member is placed on the rings; published as Hazelcast member attributes. */
    interface Member {

        /**
         * Relative capacity of this member: it gets weight × points-per-weight points on each
         * ring. An integer from 1 to 1000.
         */
        @WithDefault("1")
        int weight();

        /**
         * Features this member offers: comma-separated non-empty tags (e.g. {@code pci,ssd,eu});
         * empty or unset for none. A selection that requires features only goes to members that
         * have all of them.
         */
        Optional<String> features();

        /**
         * Stable node id. When set it is this member's ring identity instead of its address, so a
         * restarted pod with a new IP but the same name keeps its keys. Must be unique in the
         * cluster.
         */
        Optional<String> nodeId();

        /**
         * This member's place, from 0, in the server list of the clients or proxy whose ring the
         * cluster takes over ({@code hash-style} spymemcached, hashring, libmemcached-* or dubbo):
         * those programs give a point two servers share by list order, so with every member's
         * place set the v1 ring is theirs for every key. Members are ordered by it, then by
         * identity; a member without one comes after those with one. Unset: ordered by identity
         * (exact except at the rare shared points; twemproxy and xmemcached never need it).
         */
        OptionalInt listIndex();
    }

    /** The v1 to v2 migration, as Cloudflare ran it: both rings live, a share of keys on v2. */
    interface Migration {

        /**
         * Which ring serves keys: {@code v1} (all keys), {@code v2} (all keys) or {@code split}
         * (the share {@code v2-share} of keys on v2, the rest on v1). With {@code source=cluster}
         * (the default) it starts a new cluster, and a rolling restart with a new value moves the
         * running cluster's state once its first restarted member is ready; a member starting with
         * the value the cluster adopted, or an old one, changes nothing, so a change made with
         * {@code PUT /q/ketama/migration} or {@code RingSelector.updateMigration} stays in force until
         * the configuration changes (runtime/README, "Precedence").
         */
        @WithDefault("v1")
        MigrationSettings.Mode mode();

        /**
         * In {@code split} mode, the percentage of keys served by the v2 ring: 0 to 100, decimals
         * allowed (resolution far below 0.01 %). Per key and sticky: raising it only moves keys
         * from v1 to v2; lowering it moves them back.
         */
        @WithDefault("0")
        double v2Share();

        /**
         * Data centres where {@code split} mode applies (comma-separated names). In a data centre
         * not listed, every key goes to v1 whatever the share. Unset: every data centre.
         */
        Optional<List<String>> datacenters();

        /**
         * Also compute the owner on the other ring for every selection and count disagreements
         * ({@code ketama_shadow_disagreements_total}): the predicted miss rate of moving those keys.
         */
        @WithDefault("false")
        boolean shadow();

        /**
         * Where the migration settings come from: {@code cluster} (one state for the whole cluster,
         * versioned by a generation: the keys above start a new cluster and move it when a rolling
         * restart changes them, a member that joins with the cluster's configuration adopts the
         * cluster's state, and a change through {@code RingSelector.updateMigration} or
         * {@code PUT /q/ketama/migration} reaches every member) or {@code member} (each member runs
         * with its own keys above; a change reaches this member alone).
         */
        @WithDefault("cluster")
        MigrationSource source();

        /**
         * How many members a change of the cluster's migration state (an admin {@code PUT}, a
         * ramp step, {@code RingSelector.updateMigration}) needs: refused with nothing changed while
         * this member sees fewer, and acknowledged only once that many members apply it. Unset (the
         * default): a majority of the members the cluster expects, learned by the cluster itself
         * ({@code E/2 + 1}, rounded down, of the {@code E} members that joined, less those that left by
         * a graceful stop; a member dropped by failure still counts until it returns, is removed with
         * {@code DELETE /q/ketama/quorum?member=}, or has been missing for {@code forget-failed-after}).
         * So only the larger side of a network partition can change the state, no acknowledged change
         * is lost when the sides merge, and a cluster of one member changes its state at once
         * (runtime/README, "Faults"). Set: exactly this many, whatever the cluster's size ({@code 1}:
         * every change is acknowledged at once, and one made on the smaller side of a split is lost if
         * the larger side changed the state too). At least 1 when set; with {@code source=member}, not
         * used.
         */
        OptionalInt minMembers();

        /**
         * How long a member dropped by failure (crashed, cut off, paused past the failure timeout)
         * keeps counting toward the cluster's expected size, and so toward the majority a migration
         * change needs, unless it returns or an operator removes it first: 1m to 30d. A side of a
         * network partition that lasts longer than this stops counting the other side's members and
         * may change the state alone, so it should outlast the partitions the cluster must ride out;
         * meanwhile a cluster that lost a majority of its members to failures refuses changes. The
         * default, an hour, outlasts a Kubernetes node failure (40 s to mark the node not ready, 300 s
         * before its pods are evicted, then a restart elsewhere) several times over. Not used when
         * {@code min-members} is set.
         */
        @WithDefault("1h")
        Duration forgetFailedAfter();

        /**
         * The revision of the migration keys above, a whole number from 1 (for example the version
         * of the ConfigMap or deployment that sets them). With it, a member whose configuration
         * differs from the one the cluster last adopted moves the cluster only when its revision is
         * higher, so a member restarting with an old configuration never moves it back, in whatever
         * order members restart. Unset: the cluster tells old from new by which members a rollout
         * has not reached yet (runtime/README, "Configuration rollouts").
         */
        OptionalLong revision();
    }

    /** The admin plane. */
    interface Admin {

        /**
         * Bearer token that {@code PUT /q/ketama/migration} and the ramp calls require
         * ({@code Authorization: Bearer <token>}): at least 16 printable ASCII characters, no spaces.
         * Unset: the admin plane is read-only (every change is refused with 403).
         */
        Optional<String> token();
    }

    /** Leaving the rings on a graceful stop. */
    interface Drain {

        /**
         * Longest wait, on a graceful stop, for every other member to take this member off its
         * rings before the stop goes on (0 to 10m).
         */
        @WithDefault("10s")
        Duration timeout();

        /**
         * How long this member keeps serving after the others let it go, for keys they routed here
         * just before, and for requests its clients sent before it stopped being ready (also when no
         * other member routes keys, as long as it was on its own rings) (0 to 10m).
         */
        @WithDefault("1s")
        Duration quietPeriod();
    }

    /** The v2 ring. */
    interface V2 {

        /**
         * Points per unit of weight on the v2 ring: an integer from 1 to 1000000. Fewer points use
         * less memory and balance less evenly (coefficient of variation about 1/sqrt(points)). A
         * ring holds (sum of the members' weights) × this many points, about 6 bytes each: at the
         * upper bound the weights of all members may sum to at most 2,147 before every rebuild
         * fails as too large. Every member must use the same value.
         */
        @WithDefault("16")
        int pointsPerWeight();
    }

    /** Ring rebuilds. */
    interface Rebuild {

        /**
         * Membership events within this delay of the first one are folded into one rebuild; a
         * change is reflected on the rings about this long after it happens. From 0 to 60s.
         */
        @WithDefault("200ms")
        Duration coalesceDelay();
    }

    /**
     * The embedded Hazelcast member: each key, when set, overrides what Hazelcast's own
     * configuration says.
     */
    interface Hazelcast {

        /**
         * Cluster name: only members with the same name join each other. Unset: the Hazelcast
         * file's, else {@code ketama} ({@code ketama-dev} in dev mode); in tests a name unique to
         * the run.
         */
        Optional<String> clusterName();

        /** Port the member listens on (1 to 65535). Unset: the Hazelcast file's, else 5701. */
        Optional<Integer> port();

        /** Try the next ports when the port is taken. Unset: the Hazelcast file's, else true. */
        Optional<Boolean> portAutoIncrement();

        /**
         * Members to join over TCP/IP, each {@code host} or {@code host:port}, listed one by one
         * (no port ranges); setting it replaces the Hazelcast file's join configuration. Unset:
         * the file's join, else {@code 127.0.0.1} (ports 5701 and up); in tests no other member.
         * Not used when Kubernetes discovery is enabled.
         */
        Optional<List<String>> members();

        /**
         * Network interface to bind and publish (an IP address of this host, {@code *} wildcards
         * allowed, e.g. {@code 10.0.*.*}): the member listens on that address only, unless
         * {@code hazelcast.socket.bind.any} (Hazelcast file or system property) says otherwise. Unset:
         * Hazelcast picks an address to publish and listens on every address of the host.
         */
        @WithName("interface")
        Optional<String> interfaceAddress();

        /**
         * How long a member may send no heartbeat before the others drop it from the cluster, and
         * so from their rings (a partitioned, paused or dead member): whole seconds from 3s to 600s.
         * Heartbeats then go every second. Shorter drops a member sooner; a member silent for less
         * (a GC pause, a short network blip) stays. Unset: {@code hazelcast.max.no.heartbeat.seconds}
         * from the Hazelcast file or a system property, else 10s (Hazelcast's own default is 60s).
         */
        Optional<Duration> failureTimeout();

        /**
         * How often a member looks for a part of the cluster that split off (a healed network
         * partition, a member dropped while paused) and merges with it: whole seconds from 1s to
         * 600s. After a partition heals the sides merge within about this long. Unset:
         * {@code hazelcast.merge.next.run.delay.seconds} from the Hazelcast file or a system
         * property, else 10s (Hazelcast's own default is 120s, and 300s for the first look).
         */
        Optional<Duration> mergeInterval();

        /** Kubernetes discovery. */
        Kubernetes kubernetes();

        /**
         * A Hazelcast configuration file (XML or YAML; a path, else a class-path resource) to start
         * from instead of the one Hazelcast would find ({@code -Dhazelcast.config}, then
         * {@code hazelcast.xml}/{@code .yaml}/{@code .yml} in the working directory, then on the
         * class path). The keys above are laid over it; the ketama member attributes are added.
         */
        Optional<String> configFile();

        /**
         * Addresses of the members allowed in the cluster: IPv4 addresses with {@code *} for a whole
         * octet ({@code 10.0.1.*}), or IPv6 addresses. The cluster's master refuses the join of a
         * member at another address (that member stops), so give every member the same list. Should
         * such a member be in the cluster anyway (admitted by a master without the list), it never
         * receives a key: it is listed as excluded, with the reason. Unset: any address. This checks
         * the address a member declares, not a credential (member authentication is an Enterprise
         * feature of Hazelcast): keep the member port on a private network (see the README's security
         * section).
         */
        Optional<List<String>> memberAllowlist();
    }

    /** Hazelcast's Kubernetes discovery. */
    interface Kubernetes {

        /**
         * Discover members through Kubernetes instead of a TCP/IP member list ({@code true}
         * replaces the Hazelcast file's join configuration). Unset: as the Hazelcast file says,
         * else off.
         */
        Optional<Boolean> enabled();

        /**
         * DNS name of the headless Service of the members (DNS lookup mode); unset: ask the
         * Kubernetes API (needs read access to endpoints).
         */
        Optional<String> serviceDns();
    }
}
