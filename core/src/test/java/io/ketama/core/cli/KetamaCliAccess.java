package io.ketama.core.cli;

import java.util.List;

/** Lets ring tests in io.ketama.core run the CLI's route command in-process. */
public final class KetamaCliAccess {

    private KetamaCliAccess() {
    }

    /** Output lines of {@code route --servers servers} over {@code stdin}; fails unless the exit status is 0. */
    public static List<String> route(byte[] stdin, String servers) {
        CliRun r = CliRun.of(stdin, "route", "--servers", servers);
        if (r.status() != 0) {
            throw new AssertionError("route failed with status " + r.status() + ": " + r.stderr());
        }
        return r.lines();
    }
}
