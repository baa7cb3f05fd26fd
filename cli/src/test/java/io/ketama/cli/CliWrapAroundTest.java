package io.ketama.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.core.KetamaRing;
import io.ketama.core.KeyForge;
import io.ketama.core.RingVersion;
import io.ketama.core.TestData;
import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ends of the hash space through the CLI: keys forged to hash to 0 and 0xFFFFFFFF go where the ring sends them. */
class CliWrapAroundTest {

    @Test
    void theCliRoutesKeysHashingTo0And0xFFFFFFFFLikeTheRing() throws Exception {
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V1, TestData.nginxServers());
        byte[] zero = KeyForge.lineKeyWithHash(0);
        byte[] max = KeyForge.lineKeyWithHash(-1);
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        in.write(zero);
        in.write('\n');
        in.write(max);
        in.write('\n');
        CliRun r = CliRun.of(in.toByteArray(), "route", "--servers", TestData.dir().resolve("nginx-sample-upstreams.txt").toString());
        assertThat(r.status()).as(r.stderr()).isZero();
        List<String> lines = r.lines();
        assertThat(lines).containsExactly(ring.locate(zero).payload(), ring.locate(max).payload());
        assertThat(lines.get(0)).isEqualTo(ring.points().node(ring.points().nodeIndexAt(0)).payload());
    }
}
