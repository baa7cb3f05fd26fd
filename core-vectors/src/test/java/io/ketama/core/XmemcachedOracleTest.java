package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import com.google.code.yanf4j.core.Session;
import net.rubyeye.xmemcached.impl.KetamaMemcachedSessionLocator;
import net.rubyeye.xmemcached.networking.MemcachedSession;
import net.rubyeye.xmemcached.utils.InetSocketAddressWrapper;
import org.junit.jupiter.api.Test;

/**
 * {@link HashStyle#XMEMCACHED} against xmemcached 2.4.8's own {@code KetamaMemcachedSessionLocator}
 * (test scope), asked beside the ring for every one of 6,000 keys (a third non-ASCII) in each
 * server set: 3 equal; unequal weights (160 × weight points); 25; ports other than 11211; resolved
 * host names ({@code name/IP:port}); up to six pairs of servers whose texts make one point (found
 * here by a birthday search), where xmemcached picks among the tied sessions by the point's hash. Failover:
 * the sessions the locator returned are closed one after another and the locator asked again
 * (its {@code nextHash} probes), for the first 1,000 keys.
 */
class XmemcachedOracleTest {

    private record Server(InetSocketAddress address, int weight) {
        String text() {
            InetSocketAddress a = address;
            return (a.getHostString().equals(a.getAddress().getHostAddress()) ? "" : a.getHostString())
                    + "/" + a.getAddress().getHostAddress() + ":" + a.getPort();
        }
    }

    /** A session as the locator reads it: its address text, weight and whether it is closed. */
    private static Session session(Server s, Set<Session> closed) {
        InetSocketAddressWrapper wrapper = new InetSocketAddressWrapper(s.address(), 0, s.weight(), null, false);
        wrapper.setRemoteAddressStr(String.valueOf(s.address()));
        Session[] self = new Session[1];
        self[0] = (Session) Proxy.newProxyInstance(XmemcachedOracleTest.class.getClassLoader(), new Class<?>[] {MemcachedSession.class},
                (proxy, m, args) -> switch (m.getName()) {
                    case "getInetSocketAddressWrapper" -> wrapper;
                    case "getWeight" -> s.weight();
                    case "getRemoteSocketAddress" -> s.address();
                    case "isClosed" -> closed.contains(self[0]);
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> String.valueOf(s.address());
                    default -> m.getReturnType() == boolean.class ? false : m.getReturnType() == int.class ? 0 : null;
                });
        return self[0];
    }

    private static Server at(String ip, int port, int weight) throws Exception {
        return new Server(new InetSocketAddress(InetAddress.getByName(ip), port), weight);
    }

    private static Server named(String name, String ip, int port) throws Exception {
        return new Server(new InetSocketAddress(InetAddress.getByAddress(name, InetAddress.getByName(ip).getAddress()), port), 1);
    }

    /** Ports of 127.0.0.1, in pairs whose first digests ({@code /127.0.0.1:P-0}) share a point: up to 6 pairs. */
    private static List<Integer> collidingPorts() throws Exception {
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        Map<Integer, Integer> seen = new HashMap<>();
        List<Integer> out = new ArrayList<>();
        for (int port = 1024; port < 65536 && out.size() < 12; port++) {
            byte[] d = md5.digest(("/127.0.0.1:" + port + "-0").getBytes(StandardCharsets.UTF_8));
            for (int h = 0; h < 4; h++) {
                int v = (d[4 * h] & 0xFF) | (d[4 * h + 1] & 0xFF) << 8 | (d[4 * h + 2] & 0xFF) << 16 | (d[4 * h + 3] & 0xFF) << 24;
                Integer other = seen.putIfAbsent(v, port);
                if (other != null && other != port && !out.contains(other) && !out.contains(port)) {
                    out.add(port); // the later port first: input order is not the tie order
                    out.add(other);
                    break;
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalStateException("no two ports share a point");
        }
        return out;
    }

    private static Map<String, List<Server>> cases() throws Exception {
        Map<String, List<Server>> out = new java.util.LinkedHashMap<>();
        out.put("equal3", List.of(at("127.0.0.1", 11211, 1), at("127.0.0.2", 11211, 1), at("127.0.0.3", 11211, 1)));
        out.put("weights", List.of(at("10.0.0.1", 11211, 1), at("10.0.0.2", 11211, 2), at("10.0.0.3", 11311, 3),
                at("10.0.0.4", 22122, 1), at("10.0.0.5", 11211, 5)));
        List<Server> many = new ArrayList<>();
        for (int i = 1; i <= 25; i++) {
            many.add(at("10.1.0." + i, 11211 + i % 2, 1));
        }
        out.put("servers25", many);
        List<Server> ports = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            ports.add(at("127.0.0.1", 20000 + i, 1 + i % 2));
        }
        out.put("ports", ports);
        out.put("named", List.of(named("cache-a.example", "10.0.0.1", 11211), named("cache-b.example", "10.0.0.2", 11211),
                at("10.0.0.3", 11211, 1)));
        List<Server> shared = new ArrayList<>();
        for (int port : collidingPorts()) {
            shared.add(at("127.0.0.1", port, 1));
        }
        out.put("shared", shared);
        out.put("one", List.of(at("127.0.0.1", 11211, 1)));
        return out;
    }

    private static KetamaRing<Integer> ring(List<Server> servers) {
        List<Node<Integer>> nodes = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            nodes.add(Node.of(HashStyle.XMEMCACHED.identity(servers.get(i).text()), servers.get(i).weight(), i));
        }
        return KetamaRing.build(HashStyle.XMEMCACHED, nodes);
    }

    @Test
    void everyKeyGoesWhereXmemcachedSendsIt() throws Exception {
        long compared = 0;
        for (Map.Entry<String, List<Server>> c : cases().entrySet()) {
            Set<Session> closed = new HashSet<>();
            List<Session> sessions = new ArrayList<>();
            for (Server s : c.getValue()) {
                sessions.add(session(s, closed));
            }
            KetamaMemcachedSessionLocator locator = new KetamaMemcachedSessionLocator();
            locator.updateSessions(sessions);
            KetamaRing<Integer> ring = ring(c.getValue());
            for (String key : OracleKeys.KEYS) {
                int expected = sessions.indexOf(locator.getSessionByKey(key));
                assertThat(ring.locate(key.getBytes(StandardCharsets.UTF_8)).payload()).as("%s %s", c.getKey(), key).isEqualTo(expected);
                assertThat(ring.locate(key).payload()).as("%s %s (text)", c.getKey(), key).isEqualTo(expected);
                compared++;
            }
            if (c.getKey().equals("shared")) {
                assertThat(ring.collidingPointCount()).isGreaterThanOrEqualTo(c.getValue().size() / 2);
                int onShared = 0;
                for (String key : OracleKeys.KEYS) {
                    onShared += ring.collisions().at(ring.points().position(ring.hashKey(key))) >= 0 ? 1 : 0;
                }
                System.out.println("xmemcached shared: " + ring.collidingPointCount() + " shared points; " + onShared
                        + " of the keys compared land on one");
                assertThat(onShared).as("keys whose owner proves the tie rule").isGreaterThan(10);
            }
        }
        assertThat(compared).isEqualTo(7L * 6000);
    }

    @Test
    void failoverIsWhereXmemcachedGoesAsSessionsClose() throws Exception {
        for (Map.Entry<String, List<Server>> c : cases().entrySet()) {
            Set<Session> closed = new HashSet<>();
            List<Session> sessions = new ArrayList<>();
            for (Server s : c.getValue()) {
                sessions.add(session(s, closed));
            }
            KetamaMemcachedSessionLocator locator = new KetamaMemcachedSessionLocator();
            locator.updateSessions(sessions);
            KetamaRing<Integer> ring = ring(c.getValue());
            for (String key : OracleKeys.KEYS.subList(0, 1000)) {
                closed.clear();
                List<Integer> candidates = ring.candidates(key.getBytes(StandardCharsets.UTF_8), sessions.size())
                        .stream().map(Node::payload).toList();
                List<Integer> expected = new ArrayList<>();
                while (closed.size() < sessions.size()) {
                    Session s = locator.getSessionByKey(key);
                    if (closed.contains(s)) {
                        break; // every probe met a closed session: xmemcached gives up there
                    }
                    expected.add(sessions.indexOf(s));
                    closed.add(s);
                }
                assertThat(candidates).as("%s %s", c.getKey(), key).isEqualTo(expected);
            }
        }
    }
}
