package io.ketama.quarkus.runtime;

import com.hazelcast.cluster.Address;
import com.hazelcast.cluster.Member;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The addresses of the members allowed in the cluster ({@code quarkus.ketama.hazelcast.member-allowlist}):
 * IPv4 addresses in which a whole octet may be {@code *} ({@code 10.0.1.*}), or IPv6 addresses.
 * The master refuses the join of a member at another address ({@link AllowlistNodeContext}); should
 * one be in the cluster anyway (admitted by a master without the list), it is left out of the rings
 * and never receives a key.
 */
final class MemberAllowlist {

    static final String KEY = "quarkus.ketama.hazelcast.member-allowlist";

    private final List<String> entries;
    private final List<String[]> ipv4Patterns = new ArrayList<>();
    private final List<InetAddress> ipv6 = new ArrayList<>();

    private MemberAllowlist(List<String> entries) {
        this.entries = entries.stream().map(String::trim).toList();
    }

    /**
     * @throws IllegalArgumentException naming the key, the entry and what is allowed
     */
    static MemberAllowlist of(List<String> entries) {
        MemberAllowlist list = new MemberAllowlist(entries);
        for (String raw : entries) {
            String e = raw.trim();
            if (e.indexOf(':') >= 0) {
                String literal = e.startsWith("[") && e.endsWith("]") ? e.substring(1, e.length() - 1) : e;
                if (!literal.matches("[0-9a-fA-F:.%]+")) { // a literal: InetAddress then does no name lookup
                    throw invalid(raw);
                }
                try {
                    list.ipv6.add(InetAddress.getByName(literal));
                } catch (UnknownHostException ex) {
                    throw invalid(raw);
                }
                continue;
            }
            String[] octets = e.split("\\.", -1);
            if (octets.length != 4) {
                throw invalid(raw);
            }
            for (String o : octets) {
                if (!o.equals("*") && !(o.matches("\\d{1,3}") && Integer.parseInt(o) <= 255)) {
                    throw invalid(raw);
                }
            }
            list.ipv4Patterns.add(octets);
        }
        if (entries.isEmpty()) {
            throw new IllegalArgumentException(KEY + " lists no address; leave it unset to allow every member");
        }
        return list;
    }

    private static IllegalArgumentException invalid(String entry) {
        return new IllegalArgumentException(KEY + " entry '" + entry + "' is not allowed; allowed: an IPv4 address, "
                + "with * for a whole octet (10.0.1.*), or an IPv6 address");
    }

    /** Whether {@code member}'s address is on the list. */
    boolean allows(Member member) {
        return allows(member.getAddress());
    }

    /** Whether {@code memberAddress} is on the list (a host name that is not an IP literal never is). */
    boolean allows(Address memberAddress) {
        InetAddress address;
        try {
            address = memberAddress.getInetAddress();
        } catch (UnknownHostException e) {
            return false;
        }
        byte[] bytes = address.getAddress();
        if (bytes.length == 4) {
            for (String[] pattern : ipv4Patterns) {
                if (matches(pattern, bytes)) {
                    return true;
                }
            }
            return false;
        }
        for (InetAddress a : ipv6) {
            if (Arrays.equals(a.getAddress(), bytes)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(String[] pattern, byte[] bytes) {
        for (int i = 0; i < 4; i++) {
            if (!pattern[i].equals("*") && Integer.parseInt(pattern[i]) != (bytes[i] & 0xff)) {
                return false;
            }
        }
        return true;
    }

    /** Why {@code member} is left out. */
    String reason(Member member) {
        return reason(member.getAddress());
    }

    /** Why a member at {@code memberAddress} is refused. */
    String reason(Address memberAddress) {
        return "address " + memberAddress.getHost() + " is not in " + KEY + " " + entries;
    }

    @Override
    public String toString() {
        return String.join(",", entries);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MemberAllowlist other && other.entries.equals(entries);
    }

    @Override
    public int hashCode() {
        return Objects.hash(entries);
    }
}
