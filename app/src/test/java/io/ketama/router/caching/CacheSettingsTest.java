package io.ketama.router.caching;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CacheSettingsTest {

    @Test
    void theDefaultsFollowRfc9111Suggestions_rfc9111_4_2_2() {
        CacheSettings d = CacheSettings.defaults();
        assertThat(d).isEqualTo(new CacheSettings(0, 10, 86_400_000L, false, 60_000L, 16, List.of("CDN-Cache-Control")));
        assertThat(new CachePolicy(d).settings()).isSameAs(d);
    }

    @Test
    void outOfRangeComponentsAreRefusedByName() {
        assertThatThrownBy(() -> new CacheSettings(-1, 10, 0, false, 0, 16, List.of())).hasMessageContaining("defaultTtlMillis");
        assertThatThrownBy(() -> new CacheSettings(0, 101, 0, false, 0, 16, List.of())).hasMessageContaining("heuristicPercent is 0 to 100");
        assertThatThrownBy(() -> new CacheSettings(0, -1, 0, false, 0, 16, List.of())).hasMessageContaining("heuristicPercent");
        assertThatThrownBy(() -> new CacheSettings(0, 10, -1, false, 0, 16, List.of())).hasMessageContaining("heuristicMaxMillis");
        assertThatThrownBy(() -> new CacheSettings(0, 10, 0, false, -1, 16, List.of())).hasMessageContaining("staleIfErrorMillis");
        assertThatThrownBy(() -> new CacheSettings(0, 10, 0, false, 0, 1025, List.of())).hasMessageContaining("maxVaryFields is 0 to 1024");
        assertThatThrownBy(() -> new CacheSettings(0, 10, 0, false, 0, 16, List.of("Bad Name"))).hasMessageContaining("targetedFields")
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CacheSettings(0, 10, 0, false, 0, 16, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void theTargetedFieldsAreCopied() {
        List<String> names = new ArrayList<>(List.of("CDN-Cache-Control"));
        CacheSettings s = new CacheSettings(0, 10, 0, false, 0, 16, names);
        names.add("Other-Cache-Control");
        assertThat(s.targetedFields()).containsExactly("CDN-Cache-Control");
    }
}
