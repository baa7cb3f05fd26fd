package io.ketama.load.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Asks faults.sh to do one thing to the cluster (cut, mend, pause, resume, slow, unslow, kill,
 * start) and waits for its answer: one line each way over two FIFOs. Every OS action stays in the
 * script, which runs in the root namespace, owns the members' processes and cleans up.
 */
final class Injector implements AutoCloseable {

    private final OutputStream commands;
    private final BufferedReader answers;

    Injector(Path commands, Path answers) {
        try {
            this.commands = Files.newOutputStream(commands);
            this.answers = Files.newBufferedReader(answers, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the FIFOs to faults.sh: " + commands + ", " + answers, e);
        }
    }

    /** Runs one command; returns the script's answer, or throws when it is an error. */
    synchronized String run(String command) {
        try {
            commands.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            commands.flush();
            String answer = answers.readLine();
            if (answer == null) {
                throw new IllegalStateException("faults.sh closed the answers FIFO after '" + command + "'");
            }
            if (!answer.startsWith("ok")) {
                throw new IllegalStateException("faults.sh could not '" + command + "': " + answer);
            }
            return answer.trim();
        } catch (IOException e) {
            throw new UncheckedIOException("faults.sh did not take '" + command + "'", e);
        }
    }

    @Override
    public void close() throws IOException {
        commands.close();
        answers.close();
    }
}
