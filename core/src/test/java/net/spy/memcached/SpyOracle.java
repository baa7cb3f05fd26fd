package net.spy.memcached;

import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The real spymemcached 2.12.3 {@link KetamaNodeLocator}, as a test oracle: built as its
 * {@code KetamaConnectionFactory} builds it (KETAMA_HASH, default configuration), with or without
 * a weight map. Lives in spymemcached's package to ask the locator by hash and read its continuum.
 */
public final class SpyOracle {

    static {
        // KetamaNodeLocator asserts 160 points per node, which neither a weight map nor a point
        // collision keeps; surefire enables assertions, spymemcached runs without them.
        SpyOracle.class.getClassLoader().setPackageAssertionStatus("net.spy.memcached", false);
    }

    private SpyOracle() {
    }

    /** A node that answers only what the locator asks of it: its socket address. */
    public static MemcachedNode node(InetSocketAddress address) {
        return (MemcachedNode) Proxy.newProxyInstance(SpyOracle.class.getClassLoader(), new Class<?>[] {MemcachedNode.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getSocketAddress" -> (SocketAddress) address;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "node " + address;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** The locator over {@code nodes}; an empty weight map means none (as spymemcached decides). */
    public static KetamaNodeLocator locator(List<MemcachedNode> nodes, Map<InetSocketAddress, Integer> weights) {
        return new KetamaNodeLocator(nodes, DefaultHashAlgorithm.KETAMA_HASH, KetamaNodeKeyFormatter.Format.SPYMEMCACHED, weights);
    }

    /** The owner of a key hash (unsigned 32 bits in a long). */
    public static MemcachedNode nodeForHash(KetamaNodeLocator locator, long hash) {
        return locator.getNodeForKey(hash);
    }

    /** The continuum: point to node. */
    public static TreeMap<Long, MemcachedNode> continuum(KetamaNodeLocator locator) {
        return locator.getKetamaNodes();
    }
}
