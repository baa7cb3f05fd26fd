package io.ketama.router;

import com.hazelcast.cluster.Member;
import io.ketama.router.serving.Members;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code X-Ketama-Passed-Over} request header: the members (cluster addresses, {@code host:port},
 * comma-separated) that the direct client ({@code client/}) tried for this key and found failed, so
 * this member, a later candidate, serves the key from its own candidates without them, as it serves a
 * forward another member failed over to it. Without it, a candidate that is not the owner would
 * forward the key back to the owner that just failed and make the client wait out a second timeout.
 *
 * <p>It only narrows the candidates: the key is still served by one of its own candidates, the
 * owner's copy stays the owner's, and a purge reaches every member; an address that is no candidate
 * of the key, or this member's own, is ignored. At most {@value #MAX_MEMBERS} addresses of at most
 * {@value #MAX_LENGTH} characters in all, else {@code 400}.
 */
final class PassedOver {

    static final String NAME = "X-Ketama-Passed-Over";
    static final int MAX_MEMBERS = 8;
    static final int MAX_LENGTH = 1024;

    private PassedOver() {
    }

    /**
     * {@code header} when it is usable (or absent: null).
     *
     * @throws ProblemException when it is too long or names too many members
     */
    static String requireValid(String header) {
        if (header == null) {
            return null;
        }
        if (header.length() > MAX_LENGTH) {
            throw malformed(header.length() + " characters");
        }
        int members = 1;
        for (int i = 0; i < header.length(); i++) {
            if (header.charAt(i) == ',') {
                members++;
            }
        }
        if (members > MAX_MEMBERS) {
            throw malformed(members + " members");
        }
        return header;
    }

    /**
     * {@code candidates} without the members a {@link #requireValid valid} {@code header} names (not
     * this member), or {@code candidates} itself when it names none of them; never empty when
     * {@code candidates} is not.
     */
    static List<Member> without(List<Member> candidates, String header) {
        if (header == null || header.isBlank()) {
            return candidates;
        }
        String[] named = header.split(",");
        List<Member> kept = null;
        for (int i = 0; i < candidates.size(); i++) {
            Member m = candidates.get(i);
            boolean passed = !m.localMember() && names(named, Members.address(m));
            if (passed && kept == null) {
                kept = new ArrayList<>(candidates.subList(0, i));
            } else if (!passed && kept != null) {
                kept.add(m);
            }
        }
        return kept == null || kept.isEmpty() ? candidates : kept;
    }

    private static boolean names(String[] named, String address) {
        for (String n : named) {
            if (n.strip().equals(address)) {
                return true;
            }
        }
        return false;
    }

    private static ProblemException malformed(String what) {
        return new ProblemException(ProblemType.BAD_REQUEST, NAME + ": " + what + "; allowed: at most " + MAX_MEMBERS
                + " comma-separated member addresses (host:port), " + MAX_LENGTH + " characters in all");
    }
}
