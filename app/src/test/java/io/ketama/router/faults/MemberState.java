package io.ketama.router.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One member's view of the cluster, read over HTTP: the members on its rings and its last rebuild
 * ({@code GET /ring}), the migration generation it applies ({@code GET /q/ketama/migration}), and
 * the owner it names for each sample key ({@code GET /route/{key}}).
 */
record MemberState(int member, boolean answered, Set<String> ring, long rebuild, long generation, double v2Share, List<String> owners,
                   String why) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static MemberState read(Http http, JarMember m, List<String> keys) {
        try {
            Http.Answer ring = http.get(m.http() + "/ring", 2_000);
            Http.Answer migration = http.get(m.management() + "/q/ketama/migration", 2_000);
            if (ring == null || ring.status() != 200) {
                return silent(m.index(), "GET /ring " + unanswered(ring));
            }
            if (migration == null || migration.status() != 200) {
                return silent(m.index(), "GET /q/ketama/migration " + unanswered(migration));
            }
            JsonNode r = JSON.readTree(ring.body());
            Set<String> members = new TreeSet<>();
            r.path("members").forEach(x -> members.add(x.path("address").asText()));
            List<String> owners = new ArrayList<>();
            for (String key : keys) {
                Http.Answer route = http.get(m.http() + "/route/" + key, 2_000);
                if (route == null) {
                    return silent(m.index(), "GET /route/" + key + " " + unanswered(null));
                }
                owners.add(route.status() == 200 ? JSON.readTree(route.body()).path("owner").path("address").asText() : "status " + route.status());
            }
            JsonNode state = JSON.readTree(migration.body());
            return new MemberState(m.index(), true, members, r.path("lastRebuild").path("generation").asLong(-1),
                    state.path("generation").asLong(-1), state.path("v2SharePercent").asDouble(Double.NaN), owners, "");
        } catch (java.io.IOException e) {
            return silent(m.index(), "unreadable answer: " + e.getMessage());
        }
    }

    /** Why an answer does not count: none within the timeout (or the connection failed), or its status and the start of its body. */
    private static String unanswered(Http.Answer a) {
        if (a == null) {
            return "no answer within 2 s";
        }
        String body = a.body() == null ? "" : a.body().replaceAll("\\s+", " ");
        return "answered " + a.status() + ": " + (body.length() > 200 ? body.substring(0, 200) + "..." : body);
    }

    static List<MemberState> readAll(Http http, Collection<JarMember> members, List<String> keys) {
        return members.stream().map(m -> read(http, m, keys)).toList();
    }

    static MemberState silent(int member, String why) {
        return new MemberState(member, false, Set.of(), -1, -1, Double.NaN, List.of(), why);
    }

    /** Whether every member answered with exactly {@code ring} on its rings, the same owners and the same generation. */
    static boolean agree(List<MemberState> states, Set<String> ring) {
        return states.stream().allMatch(s -> s.answered() && s.ring().equals(ring))
                && states.stream().map(MemberState::owners).distinct().count() == 1
                && states.stream().map(MemberState::generation).distinct().count() == 1;
    }

    /** Whether every member answered without any address outside {@code keep} on its rings. */
    static boolean dropped(List<MemberState> states, Set<String> keep) {
        return states.stream().allMatch(s -> s.answered() && keep.containsAll(s.ring()));
    }

    static String describe(List<MemberState> states) {
        StringBuilder out = new StringBuilder();
        for (MemberState s : states) {
            out.append("\n  member ").append(s.member()).append(": ");
            if (!s.answered()) {
                out.append("no answer (").append(s.why()).append(')');
            } else {
                out.append("rings ").append(s.ring()).append(", rebuild generation ").append(s.rebuild()).append(", migration generation ")
                        .append(s.generation()).append(" (v2 ").append(s.v2Share()).append(" %), owners ").append(s.owners());
            }
        }
        return out.toString();
    }
}
