package io.ketama.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Something run.sh did or saw during the churn scenario, read back from its events file, one
 * {@code <epoch millis> <label> [detail…]} line each: {@code load-start} (written by the
 * simulation as its load begins), {@code kill} (kill -9 sent), {@code removed}
 * (the survivors' ring no longer lists the killed member), {@code start} (the new member's JVM
 * launched), {@code ready} (its readiness check passed), {@code joined} (the ring lists it).
 *
 * @param epochMillis when
 * @param label       what (one word)
 * @param detail      free text, may be empty
 */
record ChurnEvent(long epochMillis, String label, String detail) {

    /** Written by the simulation itself when its load begins; run.sh times the kill from it. */
    static final String LOAD_START = "load-start";

    ChurnEvent {
        if (label == null || label.isBlank() || label.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("an event label is one word, was '" + label + "'");
        }
        detail = detail == null ? "" : detail.strip();
    }

    /** Appends {@code event} to {@code file} as one line (creating the file if needed). */
    static void append(Path file, ChurnEvent event) {
        String line = event.epochMillis() + " " + event.label() + (event.detail().isEmpty() ? "" : " " + event.detail()) + "\n";
        try {
            Files.writeString(file, line, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to churn events " + file, e);
        }
    }

    /** Reads {@code file}; an absent file gives no events, a malformed line stops with its number. */
    static List<ChurnEvent> read(Path file) {
        if (file == null || !Files.exists(file)) {
            return List.of();
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read churn events " + file, e);
        }
        List<ChurnEvent> events = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+", 3);
            try {
                events.add(new ChurnEvent(Long.parseLong(parts[0]), parts.length > 1 ? parts[1] : "?", parts.length > 2 ? parts[2] : ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": '" + line
                        + "' does not start with epoch milliseconds; expected '<epoch ms> <label> [detail]'");
            }
        }
        return List.copyOf(events);
    }

    /** The first event labelled {@code label}. */
    static Optional<ChurnEvent> first(List<ChurnEvent> events, String label) {
        return events.stream().filter(e -> e.label().equals(label)).findFirst();
    }
}
