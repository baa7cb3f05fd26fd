package io.ketama.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** One in-process run of {@link KetamaCli#run}: exit status and everything it wrote. */
record CliRun(int status, byte[] stdoutBytes, String stderr) {

    static CliRun of(byte[] stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, false, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = KetamaCli.run(args, new ByteArrayInputStream(stdin), o, e);
        }
        return new CliRun(status, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    static CliRun of(String stdin, String... args) {
        return of(stdin.getBytes(StandardCharsets.UTF_8), args);
    }

    String stdout() {
        return new String(stdoutBytes, StandardCharsets.UTF_8);
    }

    /** Output lines, each without its '\n' (the output always ends with one). */
    List<String> lines() {
        String s = stdout();
        return s.isEmpty() ? List.of() : List.of(s.substring(0, s.length() - 1).split("\n", -1));
    }
}
