package io.ketama.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChurnEventTest {

    @TempDir
    Path dir;

    @Test
    void readsWhatRunShAndTheSimulationWrite() throws IOException {
        Path file = dir.resolve("events.txt");
        ChurnEvent.append(file, new ChurnEvent(1000, ChurnEvent.LOAD_START, "load begins"));
        Files.writeString(file, "# comment\n\n46000 kill member :8082 (PID 4242)\n47500 removed\n", java.nio.file.StandardOpenOption.APPEND);

        List<ChurnEvent> events = ChurnEvent.read(file);
        assertThat(events).extracting(ChurnEvent::label).containsExactly("load-start", "kill", "removed");
        assertThat(events.get(1)).isEqualTo(new ChurnEvent(46000, "kill", "member :8082 (PID 4242)"));
        assertThat(ChurnEvent.first(events, "removed")).map(ChurnEvent::epochMillis).contains(47500L);
        assertThat(ChurnEvent.first(events, "joined")).isEmpty();
    }

    @Test
    void anAbsentFileHasNoEventsAndAMalformedLineIsNamed() throws IOException {
        assertThat(ChurnEvent.read(dir.resolve("none.txt"))).isEmpty();
        Path file = dir.resolve("bad.txt");
        Files.writeString(file, "1 kill\nsoon start\n");
        assertThatThrownBy(() -> ChurnEvent.read(file)).hasMessageContaining("line 2: 'soon start' does not start with epoch milliseconds");
        assertThatThrownBy(() -> new ChurnEvent(1, "two words", "")).hasMessageContaining("one word");
    }
}
