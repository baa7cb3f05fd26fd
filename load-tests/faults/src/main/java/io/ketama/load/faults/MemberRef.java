package io.ketama.load.faults;

/**
 * One member of the cluster under test, as the harness made it.
 *
 * @param index its number, from 1 (its namespace is {@code <prefix>-m<index>})
 * @param clientHost the address clients reach its HTTP and management ports on (the client network)
 * @param clusterAddress {@code host:port} of its Hazelcast member on the cluster network: how every
 *     member names it (in {@code X-Ketama-Owner}, {@code /route}, {@code /ring})
 */
public record MemberRef(int index, String clientHost, String clusterAddress) {

    public MemberRef {
        if (index < 1) {
            throw new IllegalArgumentException("a member's index starts at 1, was " + index);
        }
        if (clientHost == null || clientHost.isBlank() || clusterAddress == null || !clusterAddress.contains(":")) {
            throw new IllegalArgumentException("a member needs a client host and a cluster host:port, was " + clientHost + ", " + clusterAddress);
        }
    }

    /** {@code index,clientHost,clusterHost:port}, as faults.sh passes it. */
    public static MemberRef parse(String text) {
        String[] parts = text.split(",");
        if (parts.length != 3) {
            throw new IllegalArgumentException("--member takes index,clientHost,clusterHost:port, was '" + text + "'");
        }
        try {
            return new MemberRef(Integer.parseInt(parts[0].trim()), parts[1].trim(), parts[2].trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--member: the index is not a number in '" + text + "'");
        }
    }

    public String name() {
        return "m" + index;
    }
}
