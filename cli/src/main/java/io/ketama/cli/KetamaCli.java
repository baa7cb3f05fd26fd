package io.ketama.cli;

import io.ketama.core.KetamaRing;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The command-line tool over the core library: {@code java -jar ketama-cli.jar route|analyze|diff ...}.
 *
 * <p>Exit status: 0 on success, 2 for bad arguments or bad input (one line on standard error that
 * says what was wrong and what is allowed), 1 when standard output cannot be written.
 */
public final class KetamaCli {

    static final String USAGE = String.join("\n",
            "usage: java -jar ketama-cli.jar COMMAND OPTIONS",
            "  route   --servers FILE [RING OPTIONS] [--candidates K]   keys on stdin, one per line -> server per line",
            "  analyze --servers FILE [RING OPTIONS] [--target-cov X] [--curve-svg OUT.svg]",
            "                                                           exact balance of the ring, as JSON; --curve-svg also",
            "                                                           writes balance (CoV, max/mean) and bytes against points",
            "                                                           per weight (1 to 1024) as an SVG chart",
            "  diff    --servers A [RING OPTIONS] --against B [RING OPTIONS FOR B]",
            "                                                           exact hash space that changes owner, as JSON",
            "RING OPTIONS: --ring v1|v2 (default v1)  --points-per-weight N (default 160 for v1, 16 for v2)",
            "              --hash-style nginx|pingora (default nginx); in diff, options not given for B are A's",
            "              --hash-style spymemcached|spymemcached-weighted|hashring|twemproxy-fnv1a-64|",
            "              twemproxy-md5|libmemcached-weighted|libmemcached-ketama|libmemcached-ketama-md5|",
            "              libmemcached-spymemcached|dubbo|xmemcached: the ring that client or proxy builds",
            "              (its points, key hash, ties and failover; no --ring or --points-per-weight)",
            "              --hash-tag XY: twemproxy's hash_tag (twemproxy styles only)",
            "FILE: one server per line, 'ADDRESS [WEIGHT]' or 'server ADDRESS [weight=N] [parameters];';",
            "      twemproxy: 'host:port:weight [name]'; dubbo: 'host:port' or a provider URL (hash.nodes= read)",
            "      blank lines and # comments ignored",
            "");

    private static final List<String> RING_OPTIONS =
            List.of(RingOptions.SERVERS, RingOptions.RING, RingOptions.POINTS, RingOptions.STYLE, RingOptions.HASH_TAG);
    private static final String CANDIDATES = "--candidates";
    private static final String TARGET_COV = "--target-cov";
    private static final String CURVE_SVG = "--curve-svg";
    private static final String AGAINST = "--against";

    private KetamaCli() {
    }

    public static void main(String[] args) {
        int status = run(args, System.in, System.out, System.err);
        System.out.flush();
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs one command with the given streams and returns the exit status; never calls
     * {@link System#exit}, so tests can run it in-process.
     */
    public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        String command = args.length == 0 ? "" : args[0];
        try {
            switch (command) {
                case "route" -> route(rest(args), in, out);
                case "analyze" -> analyze(rest(args), out);
                case "diff" -> diff(rest(args), out);
                case "help", "--help", "-h" -> out.print(USAGE);
                case "" -> throw new CliException("no command; commands: route, analyze, diff (see --help)");
                default -> throw new CliException("unknown command '" + command + "'; commands: route, analyze, diff (see --help)");
            }
        } catch (CliException e) {
            err.println("ketama" + (command.isEmpty() || command.startsWith("-") ? "" : " " + command) + ": " + e.getMessage());
            return 2;
        } catch (IOException | UncheckedIOException e) {
            err.println("ketama " + command + ": I/O error: " + e.getMessage());
            return 1;
        }
        out.flush();
        if (out.checkError()) {
            err.println("ketama " + command + ": cannot write standard output");
            return 1;
        }
        return 0;
    }

    private static List<String> rest(String[] args) {
        return Arrays.asList(args).subList(1, args.length);
    }

    private static Set<String> allowed(String... extra) {
        Set<String> s = new LinkedHashSet<>(RING_OPTIONS);
        s.addAll(Arrays.asList(extra));
        return s;
    }

    private static void route(List<String> args, InputStream in, PrintStream out) throws CliException, IOException {
        Arguments a = Arguments.parse("route", args, allowed(CANDIDATES));
        RingOptions options = RingOptions.from(a, RingOptions.SERVERS, null);
        int candidates = a.intValue(CANDIDATES, 1, Integer.MAX_VALUE, 1);
        KetamaRing<String> ring = options.build();
        new RouteCommand(ring, candidates).run(in, out);
    }

    private static void analyze(List<String> args, PrintStream out) throws CliException {
        Arguments a = Arguments.parse("analyze", args, allowed(TARGET_COV, CURVE_SVG));
        RingOptions options = RingOptions.from(a, RingOptions.SERVERS, null);
        Double target = null;
        if (a.has(TARGET_COV)) {
            String text = a.get(TARGET_COV);
            try {
                target = Double.valueOf(text);
            } catch (NumberFormatException e) {
                target = Double.NaN;
            }
            if (!(target > 0) || target.isInfinite()) {
                throw new CliException("option " + TARGET_COV + " must be a number > 0 (e.g. 0.05), was '" + text + "'");
            }
        }
        KetamaRing<String> ring = options.build();
        if (a.has(CURVE_SVG)) {
            if (options.style().placesKeys()) {
                throw new CliException(CURVE_SVG + " needs a ring whose points per weight can be chosen (--hash-style nginx or pingora); "
                        + options.style().label() + " clients fix the points");
            }
            java.nio.file.Path file = java.nio.file.Path.of(a.get(CURVE_SVG));
            BalanceCurve curve = BalanceCurve.measure(options.servers().toString(), options.version(), options.nodes());
            try {
                java.nio.file.Files.writeString(file, curve.svg(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new CliException(CURVE_SVG + " " + file + ": cannot write it: " + e.getMessage());
            }
        }
        print(out, AnalyzeCommand.json(options, ring, target));
    }

    /** JSON text is plain ASCII (the writer escapes the rest), so its bytes do not depend on the platform charset. */
    private static void print(PrintStream out, String json) {
        byte[] bytes = json.getBytes(StandardCharsets.US_ASCII);
        out.write(bytes, 0, bytes.length);
    }

    private static void diff(List<String> args, PrintStream out) throws CliException {
        int split = args.indexOf(AGAINST);
        if (split < 0) {
            throw new CliException("diff needs " + AGAINST + " FILE (the servers of the second ring)");
        }
        List<String> first = args.subList(0, split);
        List<String> second = args.subList(split, args.size());
        Arguments a = Arguments.parse("diff", first, allowed());
        Arguments b = Arguments.parse("diff (after --against)", second, allowedAgainst());
        RingOptions before = RingOptions.from(a, RingOptions.SERVERS, null);
        RingOptions after = RingOptions.from(b, AGAINST, a);
        print(out, DiffCommand.json(before, before.build(), after, after.build()));
    }

    private static Set<String> allowedAgainst() {
        Set<String> s = new LinkedHashSet<>();
        s.add(AGAINST);
        s.add(RingOptions.RING);
        s.add(RingOptions.POINTS);
        s.add(RingOptions.STYLE);
        s.add(RingOptions.HASH_TAG);
        return s;
    }
}
