package io.ketama.quarkus.devui;

import com.hazelcast.cluster.Member;
import io.ketama.core.FeatureTags;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.HotKeySource;
import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.MemberInfo;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.RingPicture;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.RingStats;
import io.ketama.quarkus.Selection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the Dev UI card shows (dev mode only): the members on the rings, each ring's size and
 * balance, the migration state, the owner of a key typed into the card, and the heaviest keys with
 * their rates and owners where the application counts them ({@link HotKeySource}).
 */
@ApplicationScoped
public class KetamaJsonRpcService {

    /** Keys marked on the picture: more would hide the arcs. */
    static final int PICTURE_KEYS = 8;

    @Inject
    RingSelector selector;

    @Inject
    Instance<HotKeySource> hotKeys;

    /** A member on the rings. */
    public record MemberView(String address, String identity, int weight, List<String> features, String datacenter,
                             String nodeId, boolean local) {
    }

    /** A cluster member left out of the rings, and why. */
    public record ExcludedView(String address, String reason) {
    }

    /** One ring: points, bytes and balance (coefficient of variation of load over weight; 0 is perfect). */
    public record RingView(String version, int points, long bytes, int pointsPerWeight, Double coefficientOfVariation) {
    }

    /** The migration settings this member applies now. */
    public record MigrationView(String mode, double v2SharePercent, boolean shadow) {
    }

    /** The rings now. */
    public record Rings(long generation, String builtAt, String reason, double buildMillis, List<MemberView> members,
                        List<ExcludedView> excluded, List<RingView> rings, MigrationView migration) {
    }

    /** Who owns a key: the owner (null when no member qualifies), the ring that served it and the failover order. */
    public record Owner(String key, List<String> requiredFeatures, String owner, String version, List<String> candidates) {
    }

    /** A heavy key: its requests a second here, its owner, the member it spills or fails over to, and the ring. */
    public record HotKeyView(String key, double rate, String owner, String next, String version) {
    }

    /** The heaviest keys; {@code counted} is false when the application counts none (no {@link HotKeySource}). */
    public record HotKeys(boolean counted, List<HotKeyView> keys) {
    }

    public Rings getRings() {
        RingSnapshot s = selector.snapshot();
        Member local = s.localMember();
        List<MemberView> members = new ArrayList<>();
        for (MemberInfo m : s.members()) {
            members.add(new MemberView(m.address(), m.identity(), m.weight(), List.copyOf(new TreeSet<>(m.features())),
                    m.datacenter(), m.nodeId(), local != null && m.member().getUuid().equals(local.getUuid())));
        }
        List<ExcludedView> excluded = s.excluded().stream()
                .map(e -> new ExcludedView(MemberAddress.of(e.member()), e.reason())).toList();
        List<RingView> rings = new ArrayList<>();
        for (RingVersion v : RingVersion.values()) {
            RingStats r = s.rings().get(v);
            double cov = r.coefficientOfVariation();
            rings.add(new RingView(v.label(), r.points(), r.bytes(), r.pointsPerWeight(), Double.isFinite(cov) ? cov : null));
        }
        MigrationSettings m = selector.migration().settings();
        return new Rings(s.generation(), String.valueOf(s.builtAt()), s.reason(), s.buildTime().toNanos() / 1e6, members,
                excluded, rings, new MigrationView(m.mode().label(), m.v2SharePercent(), m.shadow()));
    }

    /**
     * The owner of {@code key} (its UTF-8 bytes, as {@link RingSelector#select(String, Set)} hashes
     * it) among the members with every feature in {@code features} (comma-separated; blank for none).
     */
    public Owner owner(String key, String features) {
        Set<String> required = features == null ? Set.of() : FeatureTags.parseList(features, "features");
        Selection s = selector.select(key == null ? "" : key, Set.copyOf(required));
        List<String> candidates = s.candidates().stream().map(MemberAddress::of).toList();
        return new Owner(key, List.copyOf(required), s.found() ? MemberAddress.of(s.owner()) : null,
                s.version().label(), candidates);
    }

    /**
     * The rings as an SVG picture ({@link RingPicture}): each member's arcs on the v1 and v2
     * circles and its share against its weight share, members left out, the v1/v2 split and what
     * its next step moves.
     */
    public String getPicture() {
        List<String> marked = heaviest().stream().limit(PICTURE_KEYS).map(HotKeySource.HotKey::key).toList();
        return RingPicture.svg(selector.snapshot(), selector.migration().settings(), Double.NaN, marked);
    }

    /** The heaviest keys the application counts, each with the owner and next candidate it has on the rings now. */
    public HotKeys getHotKeys() {
        if (!hotKeys.isResolvable()) {
            return new HotKeys(false, List.of());
        }
        List<HotKeyView> keys = new ArrayList<>();
        for (HotKeySource.HotKey k : heaviest()) {
            Selection s = selector.select(k.key(), Set.of());
            List<Member> c = s.candidates();
            keys.add(new HotKeyView(k.key(), k.rate(), s.found() ? MemberAddress.of(s.owner()) : null,
                    c.size() > 1 ? MemberAddress.of(c.get(1)) : null, s.version().label()));
        }
        return new HotKeys(true, keys);
    }

    private List<HotKeySource.HotKey> heaviest() {
        return hotKeys.isResolvable() ? hotKeys.get().heaviest() : List.of();
    }
}
