package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Routes the 1000 URIs a real nginx ({@code hash $request_uri consistent}) logged. */
class NginxCompatibilityTest {

    @Test
    void sampleHasNineServersOfWeight100() throws Exception {
        List<Node<String>> servers = TestData.nginxServers();
        assertThat(servers).hasSize(9);
        assertThat(servers).allSatisfy(n -> assertThat(n.weight()).isEqualTo(100));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"V1", "V2"})
    void everyUriGoesWhereNginxSentIt(String version) throws Exception {
        KetamaRing<String> ring = KetamaRing.build(RingVersion.valueOf(version), 160, TestData.nginxServers());
        List<String[]> trace = TestData.nginxTrace();
        assertThat(trace).hasSizeGreaterThanOrEqualTo(1000); // 1001 lines: the file has no final newline
        int matched = 0;
        for (String[] line : trace) {
            assertThat(ring.locate(line[0]).payload()).as("uri %s", line[0]).isEqualTo(line[1]);
            matched++;
        }
        assertThat(matched).isEqualTo(trace.size());
    }

    @Test
    void byteAndCharSequenceLookupsAgree() throws Exception {
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V1, TestData.nginxServers());
        for (String[] line : TestData.nginxTrace()) {
            assertThat(ring.locate(line[0].getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                    .isSameAs(ring.locate(line[0]));
        }
    }
}
