package io.ketama.load;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client's view of the members, like a load balancer in front of the cluster: requests are
 * spread round-robin over the members in service, and a retry goes to the next one. A health
 * probe takes members in and out of service; without probes the initial members stay in service.
 *
 * <p>Thread-safe: the in-service list is replaced as a whole (copy on write), never edited in place.
 */
final class MemberPool {

    private final Map<Integer, Boolean> inService = new LinkedHashMap<>();
    private final AtomicLong sequence = new AtomicLong();
    private volatile int[] live;

    /**
     * @param initial members in service from the start
     * @param standby members taken into service once a probe reports them ready
     */
    MemberPool(List<Integer> initial, List<Integer> standby) {
        initial.forEach(p -> inService.put(p, true));
        standby.forEach(p -> inService.put(p, false));
        this.live = snapshot();
    }

    /** Every port, in service or not, in the order given. */
    synchronized List<Integer> ports() {
        return List.copyOf(inService.keySet());
    }

    /** A fresh ticket for round-robin: successive requests get successive members. */
    long nextTicket() {
        return sequence.getAndIncrement();
    }

    /**
     * The member for {@code attempt} (0 = first try) of the request holding {@code ticket}: each
     * retry moves one member further. When no member is in service every port is tried in turn,
     * so a load run against a dead cluster fails loudly instead of sending nothing.
     */
    int portFor(long ticket, int attempt) {
        int[] ports = live;
        if (ports.length == 0) {
            List<Integer> all = ports();
            return all.get((int) Math.floorMod(ticket + attempt, (long) all.size()));
        }
        return ports[(int) Math.floorMod(ticket + attempt, (long) ports.length)];
    }

    /** Takes {@code port} into service (ready) or out of it; unknown ports are refused. */
    synchronized void setReady(int port, boolean ready) {
        if (!inService.containsKey(port)) {
            throw new IllegalArgumentException("port " + port + " is not a member of this pool; members: " + inService.keySet());
        }
        if (inService.put(port, ready) != ready) {
            live = snapshot();
        }
    }

    /** Ports in service now. */
    List<Integer> inService() {
        List<Integer> out = new ArrayList<>();
        for (int p : live) {
            out.add(p);
        }
        return out;
    }

    private int[] snapshot() {
        return inService.entrySet().stream().filter(Map.Entry::getValue).mapToInt(Map.Entry::getKey).toArray();
    }
}
