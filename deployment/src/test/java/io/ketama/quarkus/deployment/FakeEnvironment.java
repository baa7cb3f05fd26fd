package io.ketama.quarkus.deployment;

import io.smallrye.config.EnvConfigSource;

import java.util.Map;

/**
 * Environment variables for {@link MigrationFromEnvironmentTest}: SmallRye's own environment
 * source (same ordinal 300, same name mapping) over a fixed map instead of the process
 * environment, which a test cannot set.
 */
public class FakeEnvironment extends EnvConfigSource {

    static final Map<String, String> VARIABLES = Map.of(
            "QUARKUS_KETAMA_MIGRATION_MODE", "split",
            "QUARKUS_KETAMA_MIGRATION_V2_SHARE", "37.5",
            "QUARKUS_KETAMA_MIGRATION_SHADOW", "true");

    public FakeEnvironment() {
        super(VARIABLES, 300);
    }
}
