package io.ketama.router.purge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** What a purge call's body may say, and the error for everything else. */
class PurgeCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void keysAndTagsAreReadEachOnce() {
        PurgeCommand c = PurgeCommand.parse(JSON, "{\"keys\": [\"/a\", \"/b?x=1\", \"/a\"], \"tags\": [\"t1\", \"t1\"]}");
        assertThat(c.keys()).containsExactly("/a", "/b?x=1");
        assertThat(c.tags()).containsExactly("t1");
        assertThat(PurgeCommand.parse(JSON, "{\"tags\": [\"only\"]}").keys()).isEmpty();
    }

    @Test
    void aMalformedEmptyOrOversizedPurgeIsRefusedSayingWhatIsAllowed() {
        assertThatThrownBy(() -> PurgeCommand.parse(JSON, "{keys"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("the body is not JSON");
        assertThatThrownBy(() -> PurgeCommand.parse(JSON, "[\"/a\"]")).hasMessageStartingWith("the body must be a JSON object");
        assertThatThrownBy(() -> PurgeCommand.parse(JSON, "{\"keys\": []}")).hasMessageStartingWith("nothing to purge");
        assertThatThrownBy(() -> PurgeCommand.parse(JSON, "{}")).hasMessageStartingWith("nothing to purge");
        assertThatThrownBy(() -> PurgeCommand.parse(JSON, "{\"keys\": \"/a\"}")).hasMessage("\"keys\" must be an array of strings");
        assertThatThrownBy(() -> PurgeCommand.parse(JSON, "{\"keys\": [1]}")).hasMessage("\"keys\"[0] is not a string");
        assertThatThrownBy(() -> PurgeCommand.parse(JSON, "{\"keys\": [\"\"]}")).hasMessage("\"keys\"[0] has 0 bytes; 1 to 8192 are allowed");
        assertThatThrownBy(() -> PurgeCommand.parse(JSON, "{\"tags\": [\"a b\"]}")).hasMessageContaining("space or control character");
        assertThatThrownBy(() -> PurgeCommand.parse(JSON, "{\"urls\": [\"/a\"]}"))
                .hasMessage("unknown member \"urls\": a purge names \"keys\" and/or \"tags\"");
        StringBuilder many = new StringBuilder("{\"keys\": [");
        for (int i = 0; i <= PurgeCommand.MAX_ITEMS; i++) {
            many.append(i == 0 ? "" : ",").append("\"/k").append(i).append('"');
        }
        assertThatThrownBy(() -> PurgeCommand.parse(JSON, many + "]}")).hasMessage("too many keys: 10001; one purge names at most 10000");
    }
}
