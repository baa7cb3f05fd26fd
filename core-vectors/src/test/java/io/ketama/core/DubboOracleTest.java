package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.dubbo.common.URL;
import org.apache.dubbo.rpc.Invocation;
import org.apache.dubbo.rpc.Invoker;
import org.apache.dubbo.rpc.cluster.loadbalance.ConsistentHashLoadBalance;
import org.junit.jupiter.api.Test;

/**
 * {@link HashStyle#DUBBO} against Apache Dubbo 3.3.5's own {@code ConsistentHashLoadBalance}
 * (test scope), called beside the ring for every one of 6,000 keys (a third non-ASCII) in each
 * provider set: 3 equal; 5 with weights and URL parameters (which it ignores); 25; two providers
 * whose address texts make the same points ({@code 127.0.0.1:2088} + {@code 10} is
 * {@code 127.0.0.1:20881} + {@code 0}); {@code hash.nodes=50} (48 points); a named host; one
 * provider. Failover: Dubbo's cluster re-selects over the providers not yet tried, which is the
 * balancer asked again with the list without them: three candidates for the first 1,000 keys.
 */
class DubboOracleTest {

    private static final String METHOD = "get";

    @SuppressWarnings("unchecked")
    private static Invoker<Object> invoker(String url) {
        URL u = URL.valueOf(url);
        return (Invoker<Object>) Proxy.newProxyInstance(DubboOracleTest.class.getClassLoader(), new Class<?>[] {Invoker.class},
                (proxy, m, args) -> switch (m.getName()) {
                    case "getUrl" -> u;
                    case "getInterface" -> Object.class;
                    case "isAvailable" -> true;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> url;
                    default -> null;
                });
    }

    private static Invocation invocation(String key) {
        Object[] arguments = {key};
        return (Invocation) Proxy.newProxyInstance(DubboOracleTest.class.getClassLoader(), new Class<?>[] {Invocation.class},
                (proxy, m, args) -> switch (m.getName()) {
                    case "getMethodName" -> METHOD;
                    case "getArguments" -> arguments;
                    case "getParameterTypes" -> new Class<?>[] {String.class};
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "invocation of " + key;
                    default -> null;
                });
    }

    private record Case(String name, List<String> urls, int hashNodes) {
    }

    private static List<Case> cases() {
        List<Case> out = new ArrayList<>();
        out.add(new Case("equal3", List.of("dubbo://127.0.0.1:20880/demo.Cache", "dubbo://127.0.0.2:20880/demo.Cache",
                "dubbo://127.0.0.3:20880/demo.Cache"), 160));
        out.add(new Case("weights-and-parameters", List.of("dubbo://10.0.0.1:20880/demo.Cache?weight=100",
                "dubbo://10.0.0.2:20881/demo.Cache?weight=300&timeout=5", "tri://10.0.0.3:50051/demo.Cache?weight=50",
                "dubbo://10.0.0.4:20880/demo.Cache", "dubbo://10.0.0.5:12345/demo.Cache?weight=1"), 160));
        List<String> many = new ArrayList<>();
        for (int i = 1; i <= 25; i++) {
            many.add("dubbo://10.1.0." + i + ":" + (20880 + i % 3) + "/demo.Cache");
        }
        out.add(new Case("providers25", many, 160));
        out.add(new Case("shared-points", List.of("dubbo://127.0.0.1:2088/demo.Cache", "dubbo://127.0.0.5:20880/demo.Cache",
                "dubbo://127.0.0.1:20881/demo.Cache", "dubbo://127.0.0.1:20882/demo.Cache"), 160));
        out.add(new Case("hash-nodes-50", List.of("dubbo://127.0.0.1:20880/demo.Cache?hash.nodes=50",
                "dubbo://127.0.0.2:20880/demo.Cache?hash.nodes=50", "dubbo://127.0.0.3:20890/demo.Cache?hash.nodes=50",
                "dubbo://127.0.0.4:20880/demo.Cache?hash.nodes=50"), 50));
        out.add(new Case("named", List.of("dubbo://cache-a.example:20880/demo.Cache", "dubbo://cache-b.example:20880/demo.Cache",
                "dubbo://127.0.0.9:20880/demo.Cache"), 160));
        out.add(new Case("one", List.of("dubbo://127.0.0.1:20880/demo.Cache"), 160));
        return out;
    }

    private static KetamaRing<Integer> ring(Case c, List<Integer> of) {
        List<Node<Integer>> nodes = new ArrayList<>();
        for (int i : of) {
            nodes.add(Node.of(HashStyle.DUBBO.identity(c.urls().get(i)), 1, i));
        }
        return KetamaRing.build(HashStyle.DUBBO, HashStyle.Options.DEFAULTS.withHashNodes(c.hashNodes()), nodes);
    }

    @Test
    void everyKeyGoesWhereDubboSelects() {
        long compared = 0;
        for (Case c : cases()) {
            List<Invoker<Object>> invokers = new ArrayList<>();
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i < c.urls().size(); i++) {
                invokers.add(invoker(c.urls().get(i)));
                all.add(i);
            }
            KetamaRing<Integer> ring = ring(c, all);
            ConsistentHashLoadBalance lb = new ConsistentHashLoadBalance();
            URL consumer = invokers.get(0).getUrl();
            for (String key : OracleKeys.KEYS) {
                Invoker<Object> chosen = lb.select(invokers, consumer, invocation(key));
                int expected = invokers.indexOf(chosen);
                assertThat(ring.locate(key.getBytes(StandardCharsets.UTF_8)).payload()).as("%s %s", c.name(), key).isEqualTo(expected);
                assertThat(ring.locate(key).payload()).as("%s %s (text)", c.name(), key).isEqualTo(expected);
                compared++;
            }
        }
        assertThat(compared).isEqualTo(7L * 6000);
    }

    @Test
    void failoverIsDubbosReselectionOverTheProvidersNotYetTried() {
        for (Case c : cases()) {
            List<Invoker<Object>> invokers = new ArrayList<>();
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i < c.urls().size(); i++) {
                invokers.add(invoker(c.urls().get(i)));
                all.add(i);
            }
            KetamaRing<Integer> ring = ring(c, all);
            ConsistentHashLoadBalance lb = new ConsistentHashLoadBalance();
            for (String key : OracleKeys.KEYS.subList(0, 1000)) {
                List<Invoker<Object>> left = new ArrayList<>(invokers);
                List<Integer> expected = new ArrayList<>();
                for (int k = 0; k < 3 && !left.isEmpty(); k++) {
                    Invoker<Object> chosen = lb.select(left, left.get(0).getUrl(), invocation(key));
                    expected.add(invokers.indexOf(chosen));
                    left.remove(chosen);
                }
                List<Integer> got = ring.candidates(key.getBytes(StandardCharsets.UTF_8), 3).stream().map(Node::payload).toList();
                assertThat(got).as("%s %s", c.name(), key).isEqualTo(expected);
            }
        }
    }

    @Test
    void sharedPointsGoToTheProviderListedLast() {
        Case shared = cases().get(3);
        KetamaRing<Integer> ring = ring(shared, List.of(0, 1, 2, 3));
        // 2088 + "10".."19" are 20881 + "0".."9", and 2088 + "20".."29" are 20882 + "0".."9": 20 digests, 80 points
        assertThat(ring.collidingPointCount()).isEqualTo(80);
        int onShared = 0;
        for (String key : OracleKeys.KEYS) {
            if (ring.collisions().at(ring.points().position(ring.hashKey(key))) >= 0) {
                onShared++;
            }
        }
        // these keys' owners were compared with Dubbo's in everyKeyGoesWhereDubboSelects: they prove the tie rule
        assertThat(onShared).isGreaterThan(100);
        assertThat(ring(cases().get(4), List.of(0, 1, 2, 3)).points().generatedPointsOf(0)).isEqualTo(48);
    }
}
