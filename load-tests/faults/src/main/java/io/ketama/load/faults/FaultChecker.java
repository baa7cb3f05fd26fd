package io.ketama.load.faults;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import io.ketama.quarkus.runtime.ClientFollower;

/**
 * The fault harness's checker: waits for the members faults.sh started, puts paced load on every
 * one of them, polls every member's view, runs the schedule of faults through faults.sh, and writes
 * each fault's figures ({@code figures.md}, {@code figures.csv}) with the raw requests and polls
 * beside them. Exit status 0 when every fault met every target, 1 when some target was missed, 2
 * when the run itself failed.
 */
public final class FaultChecker {

    private static final long START = System.nanoTime();
    /** The wall clock at {@link #START}, to place the members' log lines on the checker's time. */
    private static final long START_EPOCH = System.currentTimeMillis();
    /** The console log, also written to the results directory. */
    private static volatile Path logFile;

    private final CheckerOptions options;
    private final List<MemberRef> members;
    private final Map<Integer, String> addresses = new LinkedHashMap<>();
    private final List<String> sample = new ArrayList<>();
    private final MemberHttp http;
    private final HttpClient client;
    private final String token;
    /** The purges sent during partitions, checked after each heal. */
    private final List<PurgeCheck> purges = new ArrayList<>();

    private FaultChecker(CheckerOptions options) {
        this.options = options;
        this.members = options.members();
        for (MemberRef m : members) {
            addresses.put(m.index(), m.clusterAddress());
        }
        for (int i = 0; i < options.sampleKeys(); i++) {
            sample.add("fault-sample-" + i);
        }
        ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "http-client");
            t.setDaemon(true);
            return t;
        });
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2))
                .executor(executor).build();
        this.http = new MemberHttp(client, Duration.ofSeconds(2));
        String t = System.getenv(options.tokenEnv());
        this.token = t == null ? "" : t;
    }

    static long now() {
        return (System.nanoTime() - START) / 1_000_000;
    }

    public static void main(String[] args) {
        CheckerOptions options;
        try {
            options = CheckerOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("fault checker: " + e.getMessage());
            System.exit(2);
            return;
        }
        try {
            System.exit(new FaultChecker(options).run() ? 0 : 1);
        } catch (Exception e) {
            System.err.println("fault checker: the run failed: " + e);
            e.printStackTrace();
            System.exit(2);
        }
    }

    private static void log(String text) {
        String line = String.format(java.util.Locale.ROOT, "%s %7.1f s  %s%n", Instant.now(), now() / 1000.0, text);
        System.out.print(line);
        Path file = logFile;
        if (file != null) {
            try {
                Files.writeString(file, line, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            } catch (IOException e) {
                System.err.println("cannot write " + file + ": " + e);
            }
        }
    }

    private boolean run() throws Exception {
        Files.createDirectories(options.out());
        logFile = options.out().resolve("checker.log");
        waitForCluster();
        List<FaultFigures> figures = new ArrayList<>();
        try (Injector injector = new Injector(options.commands(), options.answers());
                Observer observer = new Observer(members, sample, http, FaultChecker::now, options.pollMillis());
                Load load = load()) {
            observer.start();
            load.start();
            log("migration changes need " + options.quorumText());
            log("load of " + options.rate() + " requests/s " + (direct(load) != null ? "through the direct client (cluster "
                    + options.directCluster() + ")" : "on " + members.size() + " members") + ", warming up for " + options.warmupSeconds() + " s");
            Thread.sleep(options.warmupSeconds() * 1000L);
            int sequence = 0;
            for (int round = 1; round <= options.rounds(); round++) {
                for (FaultKind kind : options.faults()) {
                    Fault fault = options.plan().fault(kind, ++sequence);
                    FaultWindow window = runFault(fault, injector, observer);
                    List<Long> merges = MergeLog.mergeTimes(options.logs()).stream().map(t -> t - START_EPOCH).toList();
                    FaultFigures f = FaultFigures.analyze(window, load.snapshot(), observer.snapshot(), addresses, sample, options.bounds(),
                            merges);
                    DirectClientLoad d = direct(load);
                    if (d != null) {
                        f = f.withDirect(DirectFigures.of(window, f.views(), d.attempts(), d.ringSamples(), ClientFollower.BOUND.toMillis()),
                                ClientFollower.BOUND.toMillis());
                    }
                    figures.add(f);
                    log(Report.line(f));
                    writeFigures(figures);
                }
            }
            load.close();
            log("load done: " + load.snapshot().size() + " requests answered or given up, " + load.notSent() + " not sent (generator bound)"
                    + (direct(load) != null ? "; the direct client's counts: " + direct(load).counts() : ""));
            writeRaw(load.snapshot(), observer.snapshot());
            if (direct(load) != null) {
                writeDirect(direct(load));
            }
        }
        writeFigures(figures);
        return figures.stream().allMatch(FaultFigures::allMet) && purges.stream().noneMatch(PurgeCheck::violated);
    }

    /** The load: through the direct client with {@code --direct-cluster}, else entering on every member in turn. */
    private Load load() throws InterruptedException {
        if (options.directCluster() == null) {
            return new EntryLoad(client, members, options.rate(), options.keys(), Duration.ofSeconds(options.clientTimeoutSeconds()),
                    FaultChecker::now);
        }
        log("connecting the direct client to cluster " + options.directCluster() + " at the members' cluster addresses");
        DirectClientLoad d = new DirectClientLoad(options.directCluster(), members, options.rate(), options.keys(), FaultChecker::now);
        log("the direct client's rings hold every member");
        return d;
    }

    private static DirectClientLoad direct(Load load) {
        return load instanceof DirectClientLoad d ? d : null;
    }

    /** Waits (bounded) until every member is ready and every ring holds every member. */
    private void waitForCluster() throws InterruptedException {
        long end = now() + 300_000;
        Set<String> all = new TreeSet<>(addresses.values());
        log("waiting for " + members.size() + " members to be ready with every member on their rings");
        while (true) {
            boolean ready = members.stream().allMatch(http::ready);
            if (ready && members.stream().map(m -> http.view(m, List.of())).allMatch(v -> v.answered() && v.ring().equals(all))) {
                log("cluster ready");
                return;
            }
            if (now() > end) {
                StringBuilder state = new StringBuilder();
                for (MemberRef m : members) {
                    MemberView v = http.view(m, List.of());
                    state.append("\n  ").append(m.name()).append(": ready ").append(http.ready(m)).append(", ")
                            .append(v.answered() ? v.ring().size() + " members on its rings, rebuild generation " + v.rebuildGeneration()
                                    : "no answer (" + v.error() + ")");
                }
                throw new IllegalStateException("the members were not ready with every member on their rings within 300 s" + state
                        + "\n(a rebuild generation in the hundreds is a rebuild loop); see the member logs");
            }
            Thread.sleep(1_000);
        }
    }

    private FaultWindow runFault(Fault fault, Injector injector, Observer observer) throws InterruptedException {
        Set<Integer> all = addresses.keySet();
        Set<String> allAddresses = ViewFigures.addressesOf(all, addresses);
        Predicate<PollRound> settled = r -> Views.allAnswered(r, all) && Views.ringsAre(r, all, allAddresses)
                && Views.ownersAgree(r, all, sample) && Views.generationsAgree(r, all);
        if (!waitUntil(observer, all, settled, 5_000, 60_000)) {
            log("the cluster did not settle within 60 s before " + fault.label() + "; injecting anyway");
        }
        String load = loadAverage();
        log("inject " + fault.label() + " (load average " + load + ")");
        for (String c : fault.inject()) {
            log("  " + c + " -> " + injector.run(c));
        }
        long injectAt = now();
        List<AdminChange> changes = new ArrayList<>();
        List<PurgeCheck> sent = new ArrayList<>();
        if (fault.adminChanges()) {
            changes.addAll(changeOnEachSide(fault, observer, injectAt));
            sent.addAll(purgeOnEachSide(fault));
        }
        sleepUntil(injectAt + fault.holdMillis());
        log("heal " + fault.label());
        for (String c : fault.heal()) {
            log("  " + c + " -> " + injector.run(c));
        }
        long healAt = now();
        boolean calm = waitUntil(observer, all, settled, options.quietSeconds() * 1000L, options.observeSeconds() * 1000L);
        long endAt = now();
        if (!calm) {
            log("not settled within " + options.observeSeconds() + " s of the heal");
        }
        for (PurgeCheck p : sent) {
            PurgeCheck checked = checkAfterHeal(p);
            purges.add(checked);
            log("  purge on the " + p.side() + " (m" + p.member() + ", " + p.status() + "): " + checked.checked()
                    + " answers of its keys read on every member after the heal, " + checked.servedPurged().size()
                    + " fetched before it" + (checked.servedPurged().isEmpty() ? "" : ": " + checked.servedPurged()));
        }
        return new FaultWindow(fault, injectAt, healAt, endAt, changes, load);
    }

    /**
     * Once both sides have dropped each other (or a few seconds before the heal, if they never do),
     * sends each side's first member a change of its own: the majority and the minority ask for
     * different shares, so whichever survives the heal is known.
     */
    private List<AdminChange> changeOnEachSide(Fault fault, Observer observer, long injectAt) throws InterruptedException {
        long latest = injectAt + Math.max(1_000, fault.holdMillis() - 5_000);
        while (now() < latest) {
            PollRound r = observer.latest();
            if (r != null && r.at() > injectAt && fault.sides().stream().allMatch(
                    side -> Views.dropped(r, side, ViewFigures.addressesOf(side, addresses)))) {
                break;
            }
            Thread.sleep(200);
        }
        List<AdminChange> changes = new ArrayList<>();
        String[] names = {"majority", "minority"};
        for (int i = 0; i < fault.sides().size() && i < 2; i++) {
            MemberRef target = members.get(new TreeSet<>(fault.sides().get(i)).first() - 1);
            double share = i == 0 ? 10 + fault.sequence() % 40 : 60 + fault.sequence() % 40;
            AdminChange c = http.changeMigration(target, names[i], now(), share, token).onSide(fault.sides().get(i).size(),
                    options.quorum());
            log("  admin change on the " + names[i] + " (m" + target.index() + ", " + share + " %): " + c.status()
                    + (c.acknowledged() ? " generation " + c.generation() : " " + c.answer()));
            changes.add(c);
        }
        return changes;
    }

    /**
     * Sends each side's first member a purge of keys of its own out of the load's (the load has asked
     * for them, so most are stored somewhere, on both sides): the side that cannot reach the other
     * answers 202 naming the members cut off, which must serve none of those answers after the heal.
     */
    private List<PurgeCheck> purgeOnEachSide(Fault fault) {
        List<PurgeCheck> out = new ArrayList<>();
        String[] names = {"majority", "minority"};
        int perSide = Math.min(20, Math.max(1, options.keys() / 4));
        for (int i = 0; i < fault.sides().size() && i < 2; i++) {
            MemberRef target = members.get(new TreeSet<>(fault.sides().get(i)).first() - 1);
            List<String> keys = new ArrayList<>();
            for (int j = 0; j < perSide; j++) {
                keys.add(Load.key((fault.sequence() * 2 * perSide + i * perSide + j) % options.keys()));
            }
            long sentAt = System.currentTimeMillis();
            String[] answer = http.purge(target, keys, token);
            log("  purge on the " + names[i] + " (m" + target.index() + ", " + keys.size() + " keys): " + answer[0] + " " + answer[1]);
            out.add(new PurgeCheck(fault.label(), target.index(), names[i], sentAt, Integer.parseInt(answer[0]), answer[1], keys, 0,
                    List.of()));
        }
        return out;
    }

    /** Reads every key of {@code p} on every member: the answers fetched before the purge that were served after the heal. */
    private PurgeCheck checkAfterHeal(PurgeCheck p) {
        List<String> served = new ArrayList<>();
        int checked = 0;
        for (MemberRef m : members) {
            for (String key : p.keys()) {
                String[] answer = http.cached(m, key);
                long readAt = System.currentTimeMillis();
                if (answer == null) {
                    continue;
                }
                checked++;
                long age;
                try {
                    age = Long.parseLong(answer[0].trim());
                } catch (NumberFormatException e) {
                    age = 0;
                }
                if (p.fetchedBefore(readAt, age)) {
                    served.add("m" + m.index() + " " + key + " age " + age + " s " + answer[1]);
                }
            }
        }
        return new PurgeCheck(p.fault(), p.member(), p.side(), p.sentAtEpoch(), p.status(), p.answer(), p.keys(), checked, served);
    }

    /**
     * Waits until {@code p} has held for {@code holdMillis} of the poll rounds that heard every
     * member of {@code all} (as {@link ViewFigures} judges agreement), at most {@code maxMillis};
     * whether it did.
     */
    private static boolean waitUntil(Observer observer, Set<Integer> all, Predicate<PollRound> p, long holdMillis, long maxMillis)
            throws InterruptedException {
        long start = now();
        while (now() - start < maxMillis) {
            List<PollRound> complete = Views.complete(observer.snapshot(), all);
            Long from = Views.stableFrom(complete, p, start, Long.MAX_VALUE);
            if (from != null && complete.get(complete.size() - 1).at() - from >= holdMillis) {
                return true;
            }
            Thread.sleep(250);
        }
        return false;
    }

    /** The machine's load average (1, 5, 15 min), to tell a fault's figures from a busy box's. */
    static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static void sleepUntil(long at) throws InterruptedException {
        long wait = at - now();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    private void writeFigures(List<FaultFigures> figures) throws IOException {
        Path run = options.out().resolve("run.txt");
        String header = Files.exists(run) ? "```\n" + Files.readString(run).strip() + "\n```\n\n" : "";
        header += "Migration changes need " + options.quorumText() + ".\n\n";
        Files.writeString(options.out().resolve("figures.md"), header + Report.markdown(figures, options.bounds()) + Report.purges(purges));
        List<String> csv = new ArrayList<>();
        csv.add(Report.csvHeader());
        figures.forEach(f -> csv.add(Report.csvRow(f)));
        Files.write(options.out().resolve("figures.csv"), csv);
    }

    private void writeRaw(List<RequestRecord> requests, List<PollRound> rounds) throws IOException {
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(options.out().resolve("requests.csv")))) {
            out.println("sent_ms,entry,key,status,millis,owner,served_by,cache,retry_after,problem,error");
            requests.stream().sorted(java.util.Comparator.comparingLong(RequestRecord::sentAt)).forEach(r -> out.println(
                    r.sentAt() + ",m" + r.entry() + "," + r.key() + "," + r.status() + "," + r.millis() + "," + nz(r.owner()) + ","
                            + nz(r.servedBy()) + "," + nz(r.cache()) + "," + r.retryAfter() + "," + nz(r.problem()) + ","
                            + nz(r.error()).replace(',', ';')));
        }
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(options.out().resolve("polls.csv")))) {
            out.println("at_ms,member,answered,ring_size,ring,rebuild_generation,migration_generation,v2_share,owners_hash,error");
            for (PollRound r : rounds) {
                for (MemberView v : r.views().values()) {
                    out.println(r.at() + ",m" + v.member() + "," + v.answered() + "," + v.ring().size() + "," + String.join(" ", new TreeSet<>(v.ring()))
                            + "," + v.rebuildGeneration() + "," + v.migrationGeneration() + "," + v.v2SharePercent() + ","
                            + Integer.toHexString(v.ownersInOrder(sample).hashCode()) + "," + nz(v.error()).replace(',', ';'));
                }
            }
        }
    }

    /** The direct client's raw figures: every member sent a request, and its rings at each change. */
    private void writeDirect(DirectClientLoad d) throws IOException {
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(options.out().resolve("direct-sent.csv")))) {
            out.println("sent_ms,member");
            d.attempts().stream().sorted(java.util.Comparator.comparingLong(DirectAttempt::sentAt))
                    .forEach(a -> out.println(a.sentAt() + ",m" + a.member()));
        }
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(options.out().resolve("direct-rings.csv")))) {
            out.println("at_ms,members");
            d.ringSamples().forEach(r -> out.println(r.at() + "," + FaultPlan.names(r.members()).replace(',', ' ')));
        }
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
