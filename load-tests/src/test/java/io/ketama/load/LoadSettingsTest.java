package io.ketama.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class LoadSettingsTest {

    private static Props props(String... pairs) {
        Properties p = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            p.setProperty(pairs[i], pairs[i + 1]);
        }
        return new Props(p);
    }

    @Test
    void readsTypedValuesWithDefaults() {
        Props p = props("a", "7", "b", "2.5", "c", " 1, 2,3 ", "d", " ");
        assertThat(p.intIn("a", 1, 0, 10)).isEqualTo(7);
        assertThat(p.intIn("missing", 4, 0, 10)).isEqualTo(4);
        assertThat(p.doubleIn("b", 1, 0, 10)).isEqualTo(2.5);
        assertThat(p.intList("c", "", 0, 10)).containsExactly(1, 2, 3);
        assertThat(p.intList("d", "9", 0, 10)).containsExactly(9);
        assertThat(p.optional("d")).isNull();
    }

    @Test
    void badValuesNameThePropertyAndWhatIsAllowed() {
        Props p = props("rate", "fast", "n", "11", "ports", "8080,x", "x", "0");
        assertThatThrownBy(() -> p.doubleIn("rate", 1, 0, 100))
                .hasMessage("system property rate='fast' is invalid; allowed: a number above 0.0 and at most 100.0");
        assertThatThrownBy(() -> p.intIn("n", 1, 0, 10)).hasMessageContaining("n='11'").hasMessageContaining("from 0 to 10");
        assertThatThrownBy(() -> p.intList("ports", "", 1, 65535)).hasMessageContaining("ports='8080,x'");
        assertThatThrownBy(() -> p.doubleIn("x", 1, 0, 5)).hasMessageContaining("above 0.0");
        assertThatThrownBy(() -> p.required("load.out")).hasMessageContaining("-Dload.out=");
    }

    @Test
    void settingsRejectOverlappingAndEmptyPortLists() {
        assertThatThrownBy(() -> new LoadSettings(List.of(), List.of(), 1, 1, 1, 1, 1, 1, 0, java.nio.file.Path.of("x"), 1000))
                .hasMessageContaining("load.ports lists no member");
        assertThatThrownBy(() -> new LoadSettings(List.of(8080), List.of(8080), 1, 1, 1, 1, 1, 1, 0, java.nio.file.Path.of("x"), 1000))
                .hasMessageContaining("port 8080 is in both");
        LoadSettings s = new LoadSettings(List.of(8080, 8081), List.of(8083), 1, 1, 1, 1, 1, 1, 0, java.nio.file.Path.of("x"), 1000);
        assertThat(s.allPorts()).containsExactly(8080, 8081, 8083);
        assertThat(LoadSettings.baseUrl(8080)).isEqualTo("http://127.0.0.1:8080");
    }
}
