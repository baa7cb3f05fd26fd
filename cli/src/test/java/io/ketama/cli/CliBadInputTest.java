package io.ketama.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.core.TestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad arguments and bad input to every command: exit status 2, exactly one line on standard
 * error naming what was wrong (and what is allowed), nothing on standard output.
 */
class CliBadInputTest {

    @TempDir
    static Path dir;

    private static String upstreams() {
        return TestData.dir().resolve("nginx-sample-upstreams.txt").toString();
    }

    private static String file(String name, String text) {
        try {
            Path p = dir.resolve(name);
            Files.writeString(p, text, StandardCharsets.UTF_8);
            return p.toString();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Each case: the arguments (FILE stands for the sample servers) and fragments the message must contain. */
    static Stream<Arguments> cases() {
        String f = upstreams();
        List<Arguments> c = new ArrayList<>();
        c.add(Arguments.of(List.of(), List.of("no command", "route, analyze, diff")));
        c.add(Arguments.of(List.of("rout"), List.of("unknown command 'rout'", "route, analyze, diff")));
        for (String cmd : List.of("route", "analyze")) {
            c.add(Arguments.of(List.of(cmd), List.of(cmd + " needs --servers FILE")));
            c.add(Arguments.of(List.of(cmd, "--servers", f, "--bogus", "1"), List.of("unknown option '--bogus'", "allowed: --servers")));
            c.add(Arguments.of(List.of(cmd, "--servers", f, "stray"), List.of("unexpected argument 'stray'")));
            c.add(Arguments.of(List.of(cmd, "--servers"), List.of("option --servers needs a value")));
            c.add(Arguments.of(List.of(cmd, "--servers", f, "--servers", f), List.of("--servers is given twice")));
            c.add(Arguments.of(List.of(cmd, "--servers", f, "--ring", "v3"), List.of("--ring must be one of v1, v2, was 'v3'")));
            c.add(Arguments.of(List.of(cmd, "--servers", f, "--points-per-weight", "0"), List.of("--points-per-weight", "integer from 1 to")));
            c.add(Arguments.of(List.of(cmd, "--servers", f, "--points-per-weight", "lots"), List.of("--points-per-weight", "'lots'")));
            c.add(Arguments.of(List.of(cmd, "--servers", f, "--hash-style", "rust"), List.of("--hash-style must be one of nginx, pingora, spymemcached, spymemcached-weighted, hashring, twemproxy-fnv1a-64, twemproxy-md5, libmemcached-weighted, libmemcached-ketama, libmemcached-ketama-md5, libmemcached-spymemcached, dubbo, xmemcached, was 'rust'")));
            c.add(Arguments.of(List.of(cmd, "--servers", dir.resolve("missing.txt").toString()), List.of("missing.txt", "does not exist")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("empty.txt", "# nothing\n\n")), List.of("lists no server")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("three.txt", "a:1\nb:1 2\na b c\n")), List.of("line 3", "ADDRESS [WEIGHT]")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("w0.txt", "a:1 0\n")), List.of("line 1", "weight '0'", "integer from 1")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("w1001.txt", "a:1 1001\n")), List.of("line 1", "weight '1001'", "integer from 1 to 1000")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("nw1001.txt", "server a:1 weight=1001;\n")), List.of("line 1", "weight '1001'", "integer from 1 to 1000")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("wx.txt", "a:1\na:2 heavy\n")), List.of("line 2", "found 'a:2 heavy'", "WEIGHT an integer from 1")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("nw0.txt", "server a:1 weight=0;\n")), List.of("line 1", "weight '0'")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("nosemi.txt", "\nserver a:1 weight=2\n")), List.of("line 2", "must end with ';'")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("noaddr.txt", "server ;\n")), List.of("line 1", "needs an address")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("semi.txt", "a:1;\n")), List.of("line 1", "does not start with 'server'")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("dup.txt", "a:1\nb:1\na:1 3\n")), List.of("line 3", "line 1", "once")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("conf.txt", "upstream u {\n  server a:1;\n}\n")), List.of("line 1", "found 'upstream u {'")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("host.txt", "10.0.0.1:80\ncache-a:80\n"), "--hash-style", "pingora"),
                    List.of("line 2", "'cache-a:80' is not an IP socket address", "--hash-style pingora")));
            // nginx refuses these ports ("invalid port"), so there is no nginx ring of them
            c.add(Arguments.of(List.of(cmd, "--servers", file("port.txt", "10.0.0.1:80\n10.0.0.2:65536 2\n")),
                    List.of("line 2", "port '65536'", "1 to 65535")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("port0.txt", "server [::1]:0 weight=2;\n")),
                    List.of("line 1", "port '0'", "1 to 65535")));
            // nginx takes the port from the first ':' of a host not in brackets: "invalid port"
            c.add(Arguments.of(List.of(cmd, "--servers", file("v6bare.txt", "[::1]:80\n::1\n")),
                    List.of("line 2", "'::1'", "IPv6 address in brackets")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("v6bare-port.txt", "server 2001:db8::5:11211 weight=2;\n")),
                    List.of("line 1", "'2001:db8::5:11211'", "IPv6 address in brackets")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("port-empty.txt", "cache-a:11211\ncache-b:\n")),
                    List.of("line 2", "port ''", "1 to 65535")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("dupv6.txt", "[::1]:80\n[0::1]:80\n"), "--hash-style", "pingora"),
                    List.of("line 2", "line 1")));
            c.add(Arguments.of(List.of(cmd, "--servers", file("big.txt", "a:1 1000\nb:1 1000\nc:1 1000\n"), "--points-per-weight", "1000000"),
                    List.of("too large")));
        }
        c.add(Arguments.of(List.of("route", "--servers", f, "--candidates", "0"), List.of("--candidates", "integer from 1")));
        c.add(Arguments.of(List.of("route", "--servers", f, "--target-cov", "0.1"), List.of("unknown option '--target-cov'")));
        c.add(Arguments.of(List.of("analyze", "--servers", f, "--target-cov", "0"), List.of("--target-cov", "> 0", "'0'")));
        c.add(Arguments.of(List.of("analyze", "--servers", f, "--target-cov", "-1"), List.of("--target-cov", "> 0")));
        c.add(Arguments.of(List.of("analyze", "--servers", f, "--target-cov", "small"), List.of("--target-cov", "'small'")));
        c.add(Arguments.of(List.of("analyze", "--servers", f, "--target-cov", "NaN"), List.of("--target-cov")));
        c.add(Arguments.of(List.of("analyze", "--servers", f, "--target-cov", "1e-12"), List.of("larger target")));
        c.add(Arguments.of(List.of("analyze", "--servers", f, "--candidates", "2"), List.of("unknown option '--candidates'")));
        c.add(Arguments.of(List.of("diff", "--servers", f), List.of("diff needs --against FILE")));
        c.add(Arguments.of(List.of("diff", "--against", f), List.of("diff needs --servers FILE")));
        c.add(Arguments.of(List.of("diff", "--servers", f, "--against"), List.of("option --against needs a value")));
        c.add(Arguments.of(List.of("diff", "--servers", f, "--against", f, "--servers", f), List.of("unknown option '--servers'", "after --against")));
        c.add(Arguments.of(List.of("diff", "--servers", f, "--against", f, "--ring", "v9"), List.of("--ring must be one of v1, v2, was 'v9'")));
        c.add(Arguments.of(List.of("diff", "--servers", f, "--against", f, "--against", f), List.of("--against is given twice")));
        c.add(Arguments.of(List.of("diff", "--servers", f, "--against", file("bad-b.txt", "a:1\n\n\n\tx y z\n")), List.of("bad-b.txt line 4")));
        c.add(Arguments.of(List.of("diff", "--servers", file("bad-a.txt", "a:1 -3\n"), "--against", f), List.of("bad-a.txt line 1", "found 'a:1 -3'")));
        return c.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void badInputIsOneClearLineAndStatus2(List<String> args, List<String> fragments) {
        CliRun r = CliRun.of("/some/key\n", args.toArray(String[]::new));
        assertThat(r.status()).as(r.stderr()).isEqualTo(2);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).endsWith("\n");
        assertThat(r.stderr().lines()).hasSize(1);
        assertThat(r.stderr()).startsWith("ketama").contains(fragments);
    }
}
