package io.ketama.k8s;

import io.ketama.quarkus.KetamaBuildTimeConfig;
import io.ketama.quarkus.KetamaConfig;
import io.ketama.quarkus.KetamaConfigCheck;
import io.ketama.router.RouterConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import io.smallrye.config.ConfigMappings;
import io.smallrye.config.ConfigValidationException;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks settings found in k8s/ and config/ by the rules of the code that reads them, not by a copy
 * of those rules: the extension's {@link KetamaConfig} mapping and its start-up validation
 * ({@link KetamaConfigCheck}), its build-time keys ({@link KetamaBuildTimeConfig}), and the
 * service's {@link RouterConfig} mapping, each read through SmallRye Config as the application
 * reads them (environment-variable names included). A key in the extension's or the service's
 * namespace that none of them defines is reported as misspelt.
 */
final class Settings {

    private static final List<Class<?>> MAPPINGS = List.of(KetamaConfig.class, KetamaBuildTimeConfig.class, RouterConfig.class);
    /** Every property the mappings define, as environment-variable name patterns ({@code *} segments of maps as wildcards). */
    private static final List<Pattern> KNOWN = known();
    /** Ports of the Quarkus HTTP and management servers: Quarkus's keys, checked for range only. */
    private static final List<String> PORT_KEYS = List.of("QUARKUS_HTTP_PORT", "QUARKUS_MANAGEMENT_PORT");

    private Settings() {
    }

    /** The environment variable of a property, as MicroProfile Config maps it. */
    static String envName(String property) {
        return property.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }

    /** Whether a key (property or environment-variable name) is in the extension's or the service's namespace. */
    static boolean ownNamespace(String propertyOrEnv) {
        String env = envName(propertyOrEnv);
        return env.startsWith("QUARKUS_KETAMA_") || env.startsWith("KETAMA_");
    }

    /** Whether one of the mappings defines the key (property or environment-variable name). */
    static boolean known(String propertyOrEnv) {
        String env = envName(propertyOrEnv);
        return KNOWN.stream().anyMatch(p -> p.matcher(env).matches());
    }

    /**
     * Adds a line to {@code problems} for each value the service would refuse at start-up: values
     * the mappings cannot convert, then what the extension's validation refuses.
     */
    static void problems(Map<String, ?> settings, List<String> problems) {
        Map<String, String> env = new LinkedHashMap<>();
        Map<String, String> properties = new LinkedHashMap<>();
        settings.forEach((key, value) -> {
            String v = value == null ? "" : value.toString();
            if (PORT_KEYS.contains(envName(key))) {
                portProblem(key, v, problems);
            }
            if (key.equals(envName(key))) {
                env.put(key, v);
            } else {
                properties.put(key, v);
            }
        });
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder()
                .withSources(new EnvConfigSource(env, 300))
                .withSources(new PropertiesConfigSource(properties, "settings under check", 260))
                .withConverter(Duration.class, 200, new DurationConverter())
                .withConverter(MemorySize.class, 200, new MemorySizeConverter());
        for (Class<?> mapping : MAPPINGS) {
            builder.withMapping(mapping);
        }
        SmallRyeConfig config;
        try {
            config = builder.build();
        } catch (ConfigValidationException e) {
            for (int i = 0; i < e.getProblemCount(); i++) {
                problems.add(e.getProblem(i).getMessage());
            }
            return;
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
            return;
        }
        problems.addAll(KetamaConfigCheck.problems(config.getConfigMapping(KetamaConfig.class)));
    }

    private static void portProblem(String key, String value, List<String> problems) {
        try {
            int port = Integer.parseInt(value.trim());
            if (port >= 1 && port <= 65535) {
                return;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add(key + "=" + value + ": must be a port from 1 to 65535");
    }

    private static List<Pattern> known() {
        List<Pattern> out = new ArrayList<>();
        for (Class<?> mapping : MAPPINGS) {
            for (String property : ConfigMappings.getProperties(ConfigMappings.ConfigClass.configClass(mapping)).keySet()) {
                StringBuilder regex = new StringBuilder();
                for (String part : property.split("\\*", -1)) {
                    if (!regex.isEmpty()) {
                        regex.append("[A-Z0-9_]+");
                    }
                    regex.append(Pattern.quote(envName(part)));
                }
                out.add(Pattern.compile(regex.toString()));
            }
        }
        return List.copyOf(out);
    }
}
