package io.ketama.bench.fleet;

import io.ketama.bench.PeerBench;
import io.ketama.core.Node;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.KetamaNodeKeyFormatter;
import net.spy.memcached.MemcachedNode;

/**
 * spymemcached 2.12.3's weighted {@link KetamaNodeLocator} over the nodes of a fleet row, with their
 * weights: libketama's share, {@code ⌊w/W × 40 × N⌋} MD5 digests of 4 points per node, so about 160
 * points per node in all (our {@code HashStyle.SPYMEMCACHED_WEIGHTED} builds the same ring).
 */
public final class FleetSpy {

    private FleetSpy() {
    }

    /** The locator's inputs: the nodes (address-only proxies) and the weight map. */
    public record Input(List<MemcachedNode> nodes, Map<InetSocketAddress, Integer> weights) {
        public KetamaNodeLocator build() {
            return new KetamaNodeLocator(nodes, DefaultHashAlgorithm.KETAMA_HASH, KetamaNodeKeyFormatter.Format.SPYMEMCACHED, weights);
        }
    }

    public static Input input(int count) {
        List<MemcachedNode> nodes = new ArrayList<>(count);
        Map<InetSocketAddress, Integer> weights = new HashMap<>();
        for (Node<String> n : FleetRow.nodes(count)) {
            InetSocketAddress a = new InetSocketAddress(n.identity().host(), Integer.parseInt(n.identity().port()));
            nodes.add(PeerBench.memcachedNode(a));
            weights.put(a, n.weight());
        }
        return new Input(nodes, weights);
    }
}
