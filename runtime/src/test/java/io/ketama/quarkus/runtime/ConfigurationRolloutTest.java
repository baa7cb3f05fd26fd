package io.ketama.quarkus.runtime;

import io.ketama.quarkus.runtime.ConfigurationRollout.Kind;
import io.ketama.quarkus.MigrationSettings.Mode;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationState;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The rule that decides whether the configuration a member starts with moves the cluster's
 * migration state ({@link ConfigurationRollout}), case by case, and the record it reads
 * ({@link AdoptedConfiguration}) as stored.
 */
class ConfigurationRolloutTest {

    private static final Instant AT = Instant.parse("2026-12-01T10:00:00Z");
    private static final ConfiguredMigration V1 = new ConfiguredMigration(MigrationSettings.DEFAULT, 0);
    private static final ConfiguredMigration SPLIT_50 = new ConfiguredMigration(new MigrationSettings(Mode.SPLIT, 50, false), 0);
    private static final ConfiguredMigration V2 = new ConfiguredMigration(new MigrationSettings(Mode.V2, 0, false), 0);

    private static MigrationState state(MigrationSettings settings, String changedBy) {
        return new MigrationState(settings, 4, changedBy, AT);
    }

    private static AdoptedConfiguration adopted(ConfiguredMigration c, Map<String, String> pending) {
        return new AdoptedConfiguration(c, 3, "10.0.0.3:5701", AT, pending);
    }

    private static Kind decide(ConfiguredMigration mine, String identity, AdoptedConfiguration recorded, MigrationState state) {
        return ConfigurationRollout.decide(mine, identity, recorded, state).kind();
    }

    @Test
    void withoutARecordAStateFromConfigurationFollowsANewConfigurationAndAnAdminChangeStays() {
        MigrationState seeded = state(MigrationSettings.DEFAULT, "configuration of 10.0.0.1:5701");
        assertThat(decide(V1, "10.0.0.1:5701", null, seeded)).as("a new cluster: its state is this configuration").isEqualTo(Kind.RECORD);
        assertThat(decide(SPLIT_50, "10.0.0.2:5701", null, seeded)).as("upgraded from a release without the rule")
                .isEqualTo(Kind.ADOPT);
        assertThat(decide(SPLIT_50, "10.0.0.2:5701", null, state(MigrationSettings.DEFAULT, "admin /10.0.0.9:4711")))
                .isEqualTo(Kind.RECORD);
    }

    @Test
    void theAdoptedConfigurationChangesNothingSoAnAdminChangeStaysInForce() {
        MigrationState admin = state(new MigrationSettings(Mode.SPLIT, 10, true), "admin /10.0.0.9:4711");
        assertThat(decide(V1, "10.0.0.1:5701", adopted(V1, Map.of()), admin)).isEqualTo(Kind.UNCHANGED);
        assertThat(decide(V1, "10.0.0.1:5701", adopted(V1, Map.of("10.0.0.1:5701", SPLIT_50.encode())), admin))
                .as("also for a member still to be rolled that comes back rolled").isEqualTo(Kind.UNCHANGED);
    }

    @Test
    void aMemberNotStillToBeRolledWithAnotherConfigurationStartsARollout() {
        MigrationState s = state(MigrationSettings.DEFAULT, "configuration of 10.0.0.1:5701");
        assertThat(decide(SPLIT_50, "10.0.0.3:5701", adopted(V1, Map.of()), s)).isEqualTo(Kind.ADOPT);
        // a rollback: the cluster adopted SPLIT_50 from .3 while .1 and .2 ran V1; .3 comes back with V1
        AdoptedConfiguration rolledOut = adopted(SPLIT_50, Map.of("10.0.0.1:5701", V1.encode(), "10.0.0.2:5701", V1.encode()));
        assertThat(decide(V1, "10.0.0.3:5701", rolledOut, s)).as("rollback from the member that rolled out").isEqualTo(Kind.ADOPT);
        // a third configuration on a member still to be rolled is a new rollout, not an old one
        assertThat(decide(V2, "10.0.0.1:5701", rolledOut, s)).isEqualTo(Kind.ADOPT);
    }

    @Test
    void aMemberStillToBeRolledThatRestartsWithItsOldConfigurationIsStale() {
        MigrationState s = state(SPLIT_50.settings(), "configuration of 10.0.0.3:5701");
        AdoptedConfiguration rolledOut = adopted(SPLIT_50, Map.of("10.0.0.1:5701", V1.encode(), "10.0.0.2:5701", ""));
        ConfigurationRollout.Decision stale = ConfigurationRollout.decide(V1, "10.0.0.1:5701", rolledOut, s);
        assertThat(stale.kind()).isEqualTo(Kind.STALE);
        assertThat(stale.why()).isEqualTo("this member ran this configuration when the cluster adopted " + SPLIT_50
                + " from 10.0.0.3:5701 and has not been rolled onto it yet");
        assertThat(decide(V1, "10.0.0.2:5701", rolledOut, s)).as("a member whose configuration was unknown (an earlier release)")
                .isEqualTo(Kind.STALE);
    }

    @Test
    void revisionsDecideWheneverEitherSideHasOne() {
        MigrationState s = state(MigrationSettings.DEFAULT, "configuration of 10.0.0.1:5701");
        ConfiguredMigration split50r2 = new ConfiguredMigration(SPLIT_50.settings(), 2);
        ConfiguredMigration v1r3 = new ConfiguredMigration(V1.settings(), 3);
        ConfiguredMigration v1r1 = new ConfiguredMigration(V1.settings(), 1);
        assertThat(decide(v1r3, "10.0.0.9:5701", adopted(split50r2, Map.of()), s)).isEqualTo(Kind.ADOPT);
        assertThat(decide(v1r1, "10.0.0.9:5701", adopted(split50r2, Map.of()), s)).as("an old member after any rollout")
                .isEqualTo(Kind.STALE);
        assertThat(decide(V1, "10.0.0.9:5701", adopted(split50r2, Map.of()), s)).as("no revision where the cluster uses them")
                .isEqualTo(Kind.STALE);
        assertThat(decide(v1r1, "10.0.0.9:5701", adopted(SPLIT_50, Map.of()), s)).as("the first revision").isEqualTo(Kind.ADOPT);
        assertThat(decide(new ConfiguredMigration(SPLIT_50.settings(), 2), "10.0.0.9:5701", adopted(split50r2, Map.of()), s))
                .isEqualTo(Kind.UNCHANGED);
    }

    @Test
    void theRecordIsStoredAsJsonAndReadBack() {
        AdoptedConfiguration a = new AdoptedConfiguration(new ConfiguredMigration(new MigrationSettings(Mode.SPLIT, 12.5, true), 7), 9,
                "pod-2", AT, Map.of("pod-0", V1.encode(), "pod-1", ""));
        assertThat(AdoptedConfiguration.decode(a.encode())).isEqualTo(a);
        assertThat(a.encode()).startsWith("{\"format\":1,\"configured\":\"split|12.5|true|7\",\"generation\":9,\"from\":\"pod-2\"");
        assertThat(a.rolled("pod-0").pending()).containsOnlyKeys("pod-1");
        assertThatThrownBy(() -> AdoptedConfiguration.decode("{\"format\":2}")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("format 2 is not 1");
        assertThatThrownBy(() -> AdoptedConfiguration.decode("not json")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not an adopted configuration: ");
        assertThatThrownBy(() -> ConfiguredMigration.decode("split|x|true|0")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("malformed configured migration 'split|x|true|0'");
    }

    @Test
    void theOriginOfAStateIsReadOffWhoMadeIt() {
        assertThat(state(V1.settings(), "configuration of pod-0").origin()).isEqualTo(MigrationState.Origin.CONFIGURATION);
        assertThat(state(V1.settings(), "admin /127.0.0.1:50000").origin()).isEqualTo(MigrationState.Origin.ADMIN);
        assertThat(state(V1.settings(), "ramp started by admin /127.0.0.1:1").origin()).isEqualTo(MigrationState.Origin.RAMP);
        assertThat(state(V1.settings(), "application on 10.0.0.1:5701").origin()).isEqualTo(MigrationState.Origin.APPLICATION);
        assertThat(state(V1.settings(), "ops").origin()).isEqualTo(MigrationState.Origin.APPLICATION);
    }
}
