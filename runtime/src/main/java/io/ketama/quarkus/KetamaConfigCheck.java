package io.ketama.quarkus;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Checks a {@link KetamaConfig} by exactly the rules start-up applies, without starting anything:
 * for tools that check configuration files and manifests ahead of time (the repository's
 * {@code k8s-check} does, so its rules are the extension's and cannot drift from them).
 *
 * <p>The rules live with the code that applies them, in the extension's runtime, which provides
 * them as a {@link Rules} service; this class finds them through {@link ServiceLoader}, so the API
 * depends on nothing of the runtime.
 */
public final class KetamaConfigCheck {

    /** The start-up rules of the settings groups, as the runtime provides them; not for applications. */
    public interface Rules {

        /** Adds one line per invalid key of {@code config} to {@code problems}. */
        void addProblems(KetamaConfig config, List<String> problems);
    }

    private KetamaConfigCheck() {
    }

    /**
     * Every problem start-up would report for {@code config}, one line each, naming the key, the
     * value and what is allowed; empty when start-up would accept it. Values SmallRye Config cannot
     * convert (a word where a number goes, an unknown enum value) fail earlier, when the mapping is
     * built.
     *
     * @throws IllegalStateException when the extension's runtime is not on the class path
     */
    public static List<String> problems(KetamaConfig config) {
        List<String> problems = new ArrayList<>();
        boolean found = false;
        for (Rules rules : ServiceLoader.load(Rules.class, KetamaConfigCheck.class.getClassLoader())) {
            rules.addProblems(config, problems);
            found = true;
        }
        if (!found) {
            throw new IllegalStateException("no rules to check the ketama configuration with: the extension's runtime "
                    + "(io.ketama:quarkus-ketama) provides them, and its " + Rules.class.getName() + " service was not found");
        }
        BoundedLoadSettings.from(config, problems);
        return List.copyOf(problems);
    }
}
