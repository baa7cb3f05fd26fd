package io.ketama.k8s;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Renders a kustomization directory into its Kubernetes objects. */
interface Renderer {
    String name();

    List<Map<String, Object>> render(Path kustomizationDir);

    /** kubectl when it is on {@code searchPath}, else the built-in renderer of the kustomize subset. */
    static Renderer choose(String searchPath) {
        Optional<Path> kubectl = Processes.onPath("kubectl", searchPath);
        return kubectl.<Renderer>map(Kubectl::new).orElseGet(KustomizeSubset::new);
    }

    /** The renderer for this machine: {@code -Dketama.k8s.renderer=java|kubectl} forces one. */
    static Renderer forThisMachine() {
        String forced = System.getProperty("ketama.k8s.renderer", "auto");
        return switch (forced) {
            case "java" -> new KustomizeSubset();
            case "kubectl" -> new Kubectl(Processes.onPath("kubectl").orElseThrow(
                    () -> new IllegalStateException("-Dketama.k8s.renderer=kubectl but kubectl is not on PATH")));
            case "auto" -> choose(System.getenv("PATH"));
            default -> throw new IllegalArgumentException(
                    "ketama.k8s.renderer must be auto, java or kubectl, not " + forced);
        };
    }

    /** {@code kubectl kustomize DIR}: offline, no cluster needed. */
    record Kubectl(Path executable) implements Renderer {
        @Override
        public String name() {
            return "kubectl kustomize";
        }

        @Override
        public List<Map<String, Object>> render(Path dir) {
            Processes.Result r = Processes.run(List.of(executable.toString(), "kustomize", dir.toString()), dir,
                    Duration.ofSeconds(60));
            if (r.exitCode() != 0) {
                throw new IllegalStateException("kubectl kustomize " + dir + " failed (exit " + r.exitCode() + "):\n"
                        + r.output());
            }
            return Yamls.loadAll(r.stdout(), "kubectl kustomize " + dir);
        }
    }
}
