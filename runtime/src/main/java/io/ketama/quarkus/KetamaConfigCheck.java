package io.ketama.quarkus;

import io.quarkus.runtime.configuration.ConfigurationException;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks a {@link KetamaConfig} by exactly the rules start-up applies, without starting anything:
 * for tools that check configuration files and manifests ahead of time (the repository's
 * {@code k8s-check} does, so its rules are the extension's and cannot drift from them).
 */
public final class KetamaConfigCheck {

    private KetamaConfigCheck() {
    }

    /**
     * Every problem start-up would report for {@code config}, one line each, naming the key, the
     * value and what is allowed; empty when start-up would accept it. Values SmallRye Config cannot
     * convert (a word where a number goes, an unknown enum value) fail earlier, when the mapping is
     * built.
     */
    public static List<String> problems(KetamaConfig config) {
        List<String> problems = new ArrayList<>();
        KetamaSettings.from(config, problems);
        ClusterSettings.from(config, problems);
        BoundedLoadSettings.from(config, problems);
        return List.copyOf(problems);
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
        List<String> problems = problems(config);
        if (!problems.isEmpty()) {
            throw new ConfigurationException("Invalid ketama configuration:\n - " + String.join("\n - ", problems));
        }
    }
}
