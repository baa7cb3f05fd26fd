package io.ketama.load.faults;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntFunction;

/**
 * Made-up poll rounds of five members for the analysis tests: each member's view is written as
 * which members its rings hold; the owners follow from the rings by a stand-in rule (key {@code ki}
 * belongs to the member at place {@code i mod size} of the ring in member order), so members with
 * the same rings agree on owners and members with different rings (four members against five, or
 * one alone) do not.
 */
final class Cluster5 {

    static final List<String> KEYS = List.of("k1", "k2");
    static final Map<Integer, String> ADDRESSES = new LinkedHashMap<>();

    static {
        for (int i = 1; i <= 5; i++) {
            ADDRESSES.put(i, address(i));
        }
    }

    static final Set<Integer> ALL = Set.of(1, 2, 3, 4, 5);

    private final List<PollRound> rounds = new ArrayList<>();
    private final long[] rebuilds = new long[6];

    static String address(int member) {
        return "10.77.0." + (10 + member) + ":5701";
    }

    /**
     * One round at {@code at}: {@code ringOf} gives each member's rings (null: it did not answer); a
     * member whose rings differ from its last answer counts one rebuild; every member applies
     * migration generation {@code generation}.
     */
    Cluster5 round(long at, IntFunction<Set<Integer>> ringOf, long generation) {
        Map<Integer, MemberView> views = new LinkedHashMap<>();
        for (int m = 1; m <= 5; m++) {
            Set<Integer> ring = ringOf.apply(m);
            if (ring == null) {
                views.put(m, MemberView.silent(m, "paused"));
                continue;
            }
            MemberView last = lastAnswer(m);
            Set<String> addresses = new TreeSet<>();
            ring.forEach(r -> addresses.add(address(r)));
            if (last == null || !last.ring().equals(addresses)) {
                rebuilds[m]++;
            }
            Map<String, String> owners = new LinkedHashMap<>();
            List<Integer> sorted = new ArrayList<>(new TreeSet<>(ring));
            for (int i = 0; i < KEYS.size(); i++) {
                owners.put(KEYS.get(i), sorted.isEmpty() ? "" : address(sorted.get((i + 1) % sorted.size())));
            }
            views.put(m, new MemberView(m, true, addresses, rebuilds[m], generation, 0.0, owners, null));
        }
        rounds.add(new PollRound(at, views));
        return this;
    }

    /** Rounds every 500 ms in {@code [from, to)}, all with the same rings. */
    Cluster5 rounds(long from, long to, IntFunction<Set<Integer>> ringOf, long generation) {
        for (long at = from; at < to; at += 500) {
            round(at, ringOf, generation);
        }
        return this;
    }

    List<PollRound> build() {
        return List.copyOf(rounds);
    }

    private MemberView lastAnswer(int m) {
        for (int i = rounds.size() - 1; i >= 0; i--) {
            MemberView v = rounds.get(i).view(m);
            if (v.answered()) {
                return v;
            }
        }
        return null;
    }

    static IntFunction<Set<Integer>> everyone() {
        return m -> ALL;
    }

    /** Member {@code isolated} alone, the others without it. */
    static IntFunction<Set<Integer>> isolated(int isolated) {
        return m -> {
            if (m == isolated) {
                return Set.of(isolated);
            }
            Set<Integer> rest = new TreeSet<>(ALL);
            rest.remove(isolated);
            return rest;
        };
    }
}
