package io.ketama.quarkus.deployment;

import io.ketama.core.RingVersion;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSettings.Mode;
import io.ketama.quarkus.RingSelector;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** Outside the data-centre allowlist, split mode sends every key to v1 whatever the share. */
class DatacenterAllowlistTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-allowlist", 1);

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(
            "quarkus.ketama.datacenter", "ams",
            "quarkus.ketama.migration.datacenters", "fra,lhr",
            "quarkus.ketama.migration.mode", "split",
            "quarkus.ketama.migration.v2-share", "100");

    @Inject
    RingSelector selector;

    @Test
    void splitModeOutsideTheAllowlistIsV1() {
        assertThat(selector.migration().settings()).isEqualTo(new MigrationSettings(Mode.SPLIT, 100, false));
        for (int i = 0; i < 10_000; i++) {
            assertThat(selector.select("key-" + i).version()).isEqualTo(RingVersion.V1);
        }
        // the allowlist governs split only: an explicit v2 mode is v2 everywhere
        selector.updateMigration(new MigrationSettings(Mode.V2, 0, false));
        try {
            assertThat(selector.select("key").version()).isEqualTo(RingVersion.V2);
        } finally {
            selector.updateMigration(new MigrationSettings(Mode.SPLIT, 100, false));
        }
        assertThat(selector.snapshot().members().get(0).datacenter()).isEqualTo("ams");
    }
}
