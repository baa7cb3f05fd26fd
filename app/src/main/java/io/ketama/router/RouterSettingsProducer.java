package io.ketama.router;

import io.quarkus.runtime.LaunchMode;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.ConfigProvider;

/** Makes the one {@link RouterSettings} of this member, validated from {@link RouterConfig} once. */
final class RouterSettingsProducer {

    /** Package-private, not private: ArC makes the declaring bean and warns of a private constructor. */
    RouterSettingsProducer() {
    }

    @Produces
    @Singleton
    static RouterSettings settings(RouterConfig config) {
        return RouterSettings.from(config, httpPort());
    }

    /** The one address the HTTP server listens on; null when it is a wildcard (Quarkus's default {@code 0.0.0.0}) or a name. */
    static String httpHost() {
        String host = ConfigProvider.getConfig().getOptionalValue("quarkus.http.host", String.class).orElse("0.0.0.0").trim();
        boolean literal = host.matches("[0-9.]+") || host.contains(":");
        boolean wildcard = host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]") || host.isEmpty();
        return literal && !wildcard ? host : null;
    }

    /** The HTTP port as configured; 0 when Quarkus picks one at start, too late to publish. */
    static int httpPort() {
        boolean test = LaunchMode.current() == LaunchMode.TEST;
        return ConfigProvider.getConfig().getOptionalValue(test ? "quarkus.http.test-port" : "quarkus.http.port", Integer.class)
                .orElse(test ? 8081 : 8080);
    }
}
