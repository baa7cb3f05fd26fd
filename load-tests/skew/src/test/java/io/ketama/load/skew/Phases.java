package io.ketama.load.skew;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Phase figures made by hand for the tests: answers per member, CPU per member. */
final class Phases {

    static final List<String> EIGHT = List.of("m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7");

    private Phases() {
    }

    static PhaseFigures of(String setup, String body, String mix, long[] served, long[] cpuMillis, long offOwner, Map<String, Long> cache,
                           long origin, long warmOrigin) {
        List<String> members = setup.equals("nginx") || setup.equals("haproxy")
                ? List.of("o0", "o1", "o2", "o3", "o4", "o5", "o6", "o7") : EIGHT;
        Map<String, Long> s = new LinkedHashMap<>();
        Map<String, Long> cpu = new LinkedHashMap<>();
        long ok = 0;
        for (int i = 0; i < served.length; i++) {
            s.put(members.get(i), served[i]);
            ok += served[i];
            if (cpuMillis != null) {
                cpu.put(members.get(i), cpuMillis[i] * 1_000_000L);
            }
        }
        // every member idles at 5 ms of CPU a second: 150 ms over the 30 s interval
        Map<String, Long> idle = new LinkedHashMap<>();
        if (cpuMillis != null) {
            members.forEach(m -> idle.put(m, 5_000_000L));
        }
        Map<String, Long> off = offOwner > 0 ? Map.of(members.get(1), offOwner) : Map.of();
        return new PhaseFigures(setup, body, mix, 800, 30, members, ok, ok, Map.of(), Map.of(200, ok), Map.of(), 1.0, 4.0, s, off, cache,
                0, cpu, 30.0, origin, warmOrigin, Map.of(), idle);
    }

    static long[] even(long each) {
        long[] a = new long[8];
        java.util.Arrays.fill(a, each);
        return a;
    }
}
