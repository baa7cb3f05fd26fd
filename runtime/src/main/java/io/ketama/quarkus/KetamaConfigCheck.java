package io.ketama.quarkus;

import io.ketama.quarkus.runtime.SettingsCheck;

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
        SettingsCheck.addProblems(config, problems);
        BoundedLoadSettings.from(config, problems);
        return List.copyOf(problems);
    }
}
