package io.ketama.quarkus.deployment;

import io.quarkus.test.QuarkusUnitTest;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application whose start-up must fail on invalid ketama configuration, with a message that
 * names the key and what is allowed. Validation runs before the Hazelcast member starts, so the
 * port here is never bound.
 */
final class InvalidConfig {

    private InvalidConfig() {
    }

    /**
     * @param keyValues the invalid settings (key, value, ...)
     * @param expected  texts the start-up failure's message chain must contain
     */
    static QuarkusUnitTest app(String[] keyValues, String... expected) {
        QuarkusUnitTest test = new TestCluster("ketama-invalid", 1).app(keyValues)
                .assertException(t -> {
                    String messages = messages(t);
                    for (String e : expected) {
                        assertThat(messages).contains(e);
                    }
                });
        return test;
    }

    static String[] set(String... keyValues) {
        return keyValues;
    }

    private static String messages(Throwable t) {
        List<String> out = new ArrayList<>();
        for (Throwable c = t; c != null && out.size() < 20; c = c.getCause()) {
            out.add(c.getClass().getName() + ": " + c.getMessage());
        }
        return String.join("\n", out);
    }
}
