package io.ketama.quarkus.runtime;

import io.ketama.quarkus.KetamaConfig;
import io.ketama.quarkus.KetamaConfigCheck;
import io.quarkus.runtime.configuration.ConfigurationException;

import java.util.List;

/**
 * The settings groups this package validates ({@link KetamaSettings}, {@link ClusterSettings}), for
 * {@link KetamaConfigCheck} (as its {@link KetamaConfigCheck.Rules} service), and the start-up check
 * that reports every group's problems at once.
 *
 * <p>Public only because {@link java.util.ServiceLoader} makes its services through a public
 * constructor; not an API.
 */
public final class SettingsCheck implements KetamaConfigCheck.Rules {

    /** For {@link java.util.ServiceLoader} ({@code META-INF/services}). */
    public SettingsCheck() {
    }

    /** Adds one line per invalid key of the groups validated here to {@code problems}, in key-group order. */
    @Override
    public void addProblems(KetamaConfig config, List<String> problems) {
        KetamaSettings.from(config, problems);
        ClusterSettings.from(config, problems);
    }

    /**
     * Stops start-up when {@code config} has any problem, reporting all of them in one failure: the
     * settings are validated in groups ({@link KetamaSettings}, {@link ClusterSettings}) made by
     * separate producers, and whichever ran first would otherwise stop start-up with only its own
     * group's problems, so a user who fixed those would meet the others only at the next start.
     *
     * @throws ConfigurationException listing every invalid key with its value and what is allowed
     */
    static void requireValid(KetamaConfig config) {
        List<String> problems = KetamaConfigCheck.problems(config);
        if (!problems.isEmpty()) {
            throw new ConfigurationException("Invalid ketama configuration:\n - " + String.join("\n - ", problems));
        }
    }
}
