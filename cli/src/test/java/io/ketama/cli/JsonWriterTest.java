package io.ketama.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonWriterTest {

    @Test
    @SuppressWarnings("unchecked")
    void roundTripsAwkwardStringsAndNumbers() {
        String awkward = "q\"b\\s/\n\r\t\u0001\u001f é \u2603 \uD83D\uDE00 ]}";
        String text = new JsonWriter().beginObject(false)
                .field("s", awkward)
                .field("long", Long.MAX_VALUE)
                .field("whole", 3.0)
                .field("small", 1.5e-7)
                .field("neg", -0.25)
                .name("list").beginArray(true).value(1).value("x").beginObject(true).field("k", 2).endObject().endArray()
                .name("empty").beginArray(false).endArray()
                .endObject().text();
        assertThat(text).matches("[\\x20-\\x7e\\n]*"); // plain ASCII, escapes for the rest
        Map<String, Object> m = JsonChecker.object(text);
        assertThat(m.get("s")).isEqualTo(awkward);
        assertThat(m.get("long")).isEqualTo(new BigDecimal(Long.MAX_VALUE));
        assertThat(((BigDecimal) m.get("whole")).doubleValue()).isEqualTo(3.0);
        assertThat(((BigDecimal) m.get("small")).doubleValue()).isEqualTo(1.5e-7);
        assertThat(((BigDecimal) m.get("neg")).doubleValue()).isEqualTo(-0.25);
        assertThat((List<Object>) m.get("list")).hasSize(3).contains("x");
        assertThat((List<Object>) m.get("empty")).isEmpty();
    }

    @Test
    void refusesNonFiniteNumbers() {
        assertThatThrownBy(() -> new JsonWriter().beginArray(true).value(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
    }

    @Test
    void checkerRejectsInvalidJson() {
        for (String bad : new String[] {"{", "{\"a\":1,}", "[1 2]", "01", "1.", "NaN", "{\"a\":1}x", "\"\u0001\"", "{\"a\":1,\"a\":2}"}) {
            assertThatThrownBy(() -> JsonChecker.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
