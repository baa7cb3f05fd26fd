package io.ketama.router;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.cluster.Member;
import io.ketama.core.EnumLabels;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.Selection;
import io.ketama.router.hot.HotKeys;
import io.ketama.router.hot.NearCache;
import io.ketama.router.load.LoadBoard;
import io.ketama.router.load.LoadSettings;
import io.ketama.router.load.LoadView;
import io.ketama.router.load.MemberLoad;
import io.ketama.router.load.OwnerLoad;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.Members;
import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The hot keys and the load on the management interface (never the public port), as JSON for
 * operators and dashboards: {@code GET /q/ketama/hot-keys}, the heaviest keys entering this member
 * with their rates, owners, next candidates and whether a near copy is held; {@code GET /q/ketama/load},
 * this member's load against its bound and every member's as this member last read the load board.
 * Each member answers with its own view: the keys entering it (the cluster's rates are the sum over
 * the members), the board as it read it after its last window. Read-only; with
 * {@code quarkus.management.enabled=false} there is none.
 */
@Singleton
class HotKeysAdmin {

    private static final Logger LOG = Logger.getLogger(HotKeysAdmin.class);
    static final String HOT_KEYS = "/q/ketama/hot-keys";
    static final String LOAD = "/q/ketama/load";

    private final RingSelector selector;
    private final HotKeys hot;
    private final NearCache near;
    private final OwnerLoad load;
    private final LoadBoard board;
    private final String member;
    private final ObjectMapper json;

    HotKeysAdmin(RingSelector selector, HotKeys hot, NearCache near, OwnerLoad load, LoadBoard board, KeyServer keyServer,
                 ObjectMapper json) {
        this.selector = selector;
        this.hot = hot;
        this.near = near;
        this.load = load;
        this.board = board;
        this.member = keyServer.memberAddress();
        this.json = json;
    }

    void mount(@Observes ManagementInterface management) {
        management.router().get(HOT_KEYS).handler(ctx -> write(ctx, hotKeys()));
        management.router().get(LOAD).handler(ctx -> write(ctx, load()));
    }

    /** One heavy key: its rate into this member and where it is served. */
    record Key(String key, double rate, long estimate, String ring, String owner, boolean ownerLocal, String next, boolean near) {
    }

    record HotKeysView(String member, String window, int minRequests, int top, List<Key> keys) {
    }

    HotKeysView hotKeys() {
        List<Key> keys = new ArrayList<>();
        for (HotKeys.HotKey k : hot.top()) {
            String owner = null;
            String next = null;
            String ring = null;
            boolean local = false;
            if (selector.snapshot() != null) {
                Selection s = selector.select(k.key().getBytes(StandardCharsets.ISO_8859_1), Set.of());
                ring = EnumLabels.label(s.version());
                if (s.found()) {
                    Member o = s.owner();
                    owner = Members.address(o);
                    local = o.localMember();
                    next = s.candidates().size() > 1 ? Members.address(s.candidates().get(1)) : null;
                }
            }
            keys.add(new Key(k.key(), round(k.rate()), k.estimate(), ring, owner, local, next,
                    near != null && near.holds(k.key())));
        }
        return new HotKeysView(member, hot.window().toMillis() + "ms", hot.minCount(), hot.capacity(), keys);
    }

    /** A member's load: answers a second in its last window, what it may serve (null: no bound), its weight. */
    record MemberView(String address, double rate, Double boundRate, int weight, boolean full, boolean local) {
    }

    /** This member's bound in the window under way (requests a window; null: none). */
    record Bound(Long hard, Long soft, long inWindow) {
    }

    record LoadPage(String member, boolean enabled, double factor, String window, long minRate, double clusterRate,
                    long totalWeight, double meanRate, Bound bound, long served, long spilled, List<MemberView> members) {
    }

    LoadPage load() {
        LoadSettings settings = load.settings();
        LoadView view = board.view();
        List<MemberView> members = new ArrayList<>();
        for (MemberLoad m : view.members()) {
            members.add(new MemberView(m.address(), round(m.rate()), Double.isInfinite(m.boundRate()) ? null : round(m.boundRate()),
                    m.weight(), m.full(), m.local()));
        }
        long hard = load.hardBound();
        long soft = load.softBound();
        return new LoadPage(member, settings.enabled(), settings.factor(), settings.window().toMillis() + "ms", settings.minRate(),
                round(view.clusterRate()), view.totalWeight(), round(view.meanRate()),
                new Bound(hard == Long.MAX_VALUE ? null : hard, soft == Long.MAX_VALUE ? null : soft, load.inWindow()),
                load.served(), load.spilled(), members);
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    private void write(RoutingContext ctx, Object page) {
        byte[] body;
        try {
            body = json.writeValueAsBytes(page);
        } catch (JsonProcessingException e) {
            LOG.error("the hot-key page cannot be written", e);
            ctx.response().setStatusCode(500).end();
            return;
        }
        ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(io.vertx.core.buffer.Buffer.buffer(body));
    }
}
