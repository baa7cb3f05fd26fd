package io.ketama.quarkus.runtime;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import evil.Payload;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.management.BadAttributeValueExpException;
import java.io.Serial;
import java.io.Serializable;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A hardened member (the extension's embedded member configuration) deserializes no Java class from
 * the network except the project's own (and Hazelcast's and the JDK's basic ones): a task of a
 * foreign class sent by another member is refused before any of its code runs, a JDK class from a
 * known gadget chain inside one of our own tasks is refused, and our own tasks still run.
 */
class HazelcastHardeningTest {

    private static final LoopbackMembers MEMBERS = new LoopbackMembers("ketama-hardening", 2);
    private static HazelcastInstance hardened;
    private static HazelcastInstance sender;

    @BeforeAll
    static void start() {
        hardened = MEMBERS.start(0, config -> {
            HazelcastHardening.apply(config);
            return Hazelcast.newHazelcastInstance(config);
        });
        sender = MEMBERS.start(1);
        LoopbackMembers.await(() -> hardened.getCluster().getMembers().size() == 2, "two members");
    }

    @AfterAll
    static void stop() {
        MEMBERS.close();
    }

    private static <T> Future<T> submitToHardened(Callable<T> task) {
        return sender.getExecutorService("hardening-test").submitToMember(task, hardened.getCluster().getLocalMember());
    }

    @Test
    void aForeignClassIsRefusedBeforeAnyOfItsCodeRuns() {
        int before = Payload.DESERIALIZED.get();
        assertThatThrownBy(() -> submitToHardened(new Payload()).get(60, TimeUnit.SECONDS))
                .hasStackTraceContaining("Resolving class evil.Payload is not allowed");
        assertThat(Payload.DESERIALIZED.get()).isEqualTo(before);
    }

    @Test
    void aGadgetClassInsideOurOwnTaskIsRefused() {
        assertThatThrownBy(() -> submitToHardened(new Carrier(new BadAttributeValueExpException("x"))).get(60, TimeUnit.SECONDS))
                .hasStackTraceContaining("Resolving class javax.management.BadAttributeValueExpException is not allowed");
    }

    @Test
    void ourOwnTasksStillRun() throws Exception {
        assertThat(submitToHardened(new Carrier("a plain string")).get(60, TimeUnit.SECONDS)).isEqualTo("carried a plain string");
    }

    @Test
    void aFilterTheApplicationConfiguredIsKept() {
        Config config = new Config();
        config.getSerializationConfig().setJavaSerializationFilterConfig(
                new com.hazelcast.config.JavaSerializationFilterConfig().setDefaultsDisabled(true));
        HazelcastHardening.apply(config);
        assertThat(config.getSerializationConfig().getJavaSerializationFilterConfig().isDefaultsDisabled()).isTrue();
    }

    /** One of the project's own task classes, carrying whatever it is given. */
    static final class Carrier implements Callable<String>, Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
        private final Serializable cargo;

        Carrier(Serializable cargo) {
            this.cargo = cargo;
        }

        @Override
        public String call() {
            return "carried " + cargo;
        }
    }
}
