package io.ketama.load.faults;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The checker's command line, as faults.sh writes it. A bad value stops the run with the option's
 * name and what it takes.
 *
 * @param members the members, in index order
 * @param faults the schedule, in order
 * @param rounds times the schedule runs
 * @param rate client requests a second, all members together
 * @param keys distinct keys of the load
 * @param sampleKeys keys whose owners every poll asks every member for
 * @param plan how long each fault lasts and how slow a slow member is
 * @param observeSeconds the most seconds a fault is watched after its heal
 * @param quietSeconds unbroken agreement that counts as settled
 * @param warmupSeconds load before the first fault (JIT, caches; also a fault-free baseline)
 * @param failureTimeoutSeconds the members' failure timeout (for the stated bounds)
 * @param mergeIntervalSeconds the members' merge interval (for the stated bounds)
 * @param minMembers the members' {@code quarkus.ketama.migration.min-members} when faults.sh set it, else 0: the
 *     members then run with the product's default, the learned quorum ({@link #quorum()})
 * @param clientTimeoutSeconds how long a client request waits before it counts as unanswered
 * @param pollMillis time between two poll rounds
 * @param tokenEnv the environment variable holding the admin token
 * @param out the results directory
 * @param commands the FIFO the checker writes commands for faults.sh to
 * @param answers the FIFO faults.sh answers on
 * @param logs the directory of the members' logs ({@code member-<i>.log}), for Hazelcast's merges; may be null
 * @param directCluster the members' Hazelcast cluster name when the load goes through the direct client
 *     (which follows the cluster at the members' cluster addresses and sends each request to its key's
 *     owner), else null: the load enters on every member in turn
 */
public record CheckerOptions(List<MemberRef> members, List<FaultKind> faults, int rounds, int rate, int keys, int sampleKeys,
        FaultPlan plan, int observeSeconds, int quietSeconds, int warmupSeconds, int failureTimeoutSeconds,
        int mergeIntervalSeconds, int minMembers, int clientTimeoutSeconds, int pollMillis, String tokenEnv, Path out,
        Path commands, Path answers, Path logs, String directCluster) {

    public CheckerOptions {
        members = List.copyOf(members);
        faults = List.copyOf(faults);
        for (int i = 0; i < members.size(); i++) {
            if (members.get(i).index() != i + 1) {
                throw new IllegalArgumentException("--member: members are numbered 1.." + members.size() + " in order, found "
                        + members.get(i).index() + " at place " + (i + 1));
            }
        }
    }

    /**
     * How many members a migration change needs, as the members were started: {@code min-members} when
     * set, else the learned quorum, a majority of the members the cluster expects, which after a start of
     * every member one after another is a majority of the members started (a member dropped by failure
     * keeps counting; the harness stops none gracefully).
     */
    public int quorum() {
        return minMembers > 0 ? minMembers : members.size() / 2 + 1;
    }

    /** {@link #quorum()} in words, for the log and the figures. */
    public String quorumText() {
        return minMembers > 0 ? "min-members " + minMembers + " (set explicitly)"
                : "the learned quorum (no min-members): a majority of the " + members.size() + " members started, " + quorum();
    }

    public Bounds bounds() {
        return Bounds.stated(failureTimeoutSeconds * 1000L, mergeIntervalSeconds * 1000L, quietSeconds * 1000L);
    }

    public static CheckerOptions parse(String... args) {
        List<MemberRef> members = new ArrayList<>();
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (!name.startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("options come as --name value, found '" + name + "'"
                        + (i + 1 >= args.length ? " without a value" : ""));
            }
            String value = args[++i];
            if (name.equals("--member")) {
                members.add(MemberRef.parse(value));
            } else {
                values.put(name.substring(2), value);
            }
        }
        Values v = new Values(values);
        if (members.size() < 3) {
            throw new IllegalArgumentException("--member: at least 3 members, found " + members.size());
        }
        List<FaultKind> faults = new ArrayList<>();
        for (String word : v.text("faults", "isolate,split,partial,pause,slow,kill,blip").split(",")) {
            if (!word.isBlank()) {
                faults.add(FaultKind.parse(word));
            }
        }
        FaultPlan plan = new FaultPlan(members.size(), v.whole("hold", 30, 1, 3600), v.whole("pause", 20, 1, 3600),
                v.whole("blip", 3, 1, 3600), v.whole("slow-percent", 5, 1, 100));
        CheckerOptions o = new CheckerOptions(members, faults, v.whole("rounds", 1, 1, 100), v.whole("rate", 200, 1, 100_000),
                v.whole("keys", 1000, 1, 10_000_000), v.whole("sample", 16, 1, 1000), plan, v.whole("observe", 120, 5, 3600),
                v.whole("quiet", 15, 1, 3600), v.whole("warmup", 20, 0, 3600), v.whole("failure-timeout", 10, 1, 3600),
                v.whole("merge-interval", 10, 1, 3600), v.whole("min-members", 0, 1, members.size()),
                v.whole("client-timeout", 15, 1, 600), v.whole("poll-millis", 500, 100, 10_000), v.text("token-env", "FAULTS_ADMIN_TOKEN"),
                Path.of(v.text("out", "fault-results")), v.path("commands"), v.path("answers"), v.path("logs"),
                v.text("direct-cluster", null));
        if (!v.unused().isEmpty()) {
            throw new IllegalArgumentException("unknown options: --" + String.join(", --", v.unused()));
        }
        return o;
    }

    /** The named values, each read at most once, so that a misspelt option is reported rather than ignored. */
    private static final class Values {
        private final Map<String, String> values;

        Values(Map<String, String> values) {
            this.values = new HashMap<>(values);
        }

        String text(String name, String otherwise) {
            String value = values.remove(name);
            return value == null ? otherwise : value;
        }

        Path path(String name) {
            String value = values.remove(name);
            return value == null ? null : Path.of(value);
        }

        int whole(String name, int otherwise, int low, int high) {
            String value = values.remove(name);
            if (value == null) {
                return otherwise;
            }
            try {
                int n = Integer.parseInt(value.trim());
                if (n >= low && n <= high) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException("--" + name + " takes a whole number from " + low + " to " + high + ", was '" + value + "'");
        }

        List<String> unused() {
            return List.copyOf(values.keySet());
        }
    }
}
