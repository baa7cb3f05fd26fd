package io.ketama.quarkus.runtime;

import com.hazelcast.config.ClassFilter;
import com.hazelcast.config.Config;
import com.hazelcast.config.JavaSerializationFilterConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceFactory;
import org.jboss.logging.Logger;

/**
 * What the extension locks down on the embedded member's {@link Config}, as far as Hazelcast's
 * open-source edition allows (TLS and member authentication are Enterprise features; see the README's
 * security section for what that leaves and how to cover it).
 *
 * <ul>
 *   <li><b>No arbitrary Java deserialization from the network.</b> Java serialization goes through a
 *       class-name filter that allows only the project's own classes ({@value #OWN_PREFIX}*) besides
 *       Hazelcast's default allowlist ({@code com.hazelcast.}, {@code java}, arrays), and refuses the
 *       JDK packages known from deserialization gadget chains outright. The cluster's own state (the
 *       migration state, the member board) is stored as strings and never needs Java serialization.
 *       A filter the application configured itself (a Hazelcast config file) is kept.</li>
 *   <li><b>Join by cluster name</b> (set by the configuration; a member of another name is refused),
 *       multicast and auto-detection off: a member joins only through the listed addresses or
 *       Kubernetes discovery.</li>
 *   <li><b>Join by address</b>, when {@code quarkus.ketama.hazelcast.member-allowlist} is set: the
 *       master refuses a member at another address ({@link AllowlistNodeContext}).</li>
 * </ul>
 */
final class HazelcastHardening {

    private static final Logger LOG = Logger.getLogger(HazelcastHardening.class);

    /** Classes of this project that may be Java-deserialized (forwarded keys and answers, for instance). */
    static final String OWN_PREFIX = "io.ketama.";
    /** JDK packages of known gadget chains: refused even though Hazelcast's default allowlist covers {@code java}. */
    static final String[] REFUSED_PREFIXES = {"java.rmi.", "javax.management.", "javax.naming.", "javax.script.", "java.beans.",
            "javax.swing.", "java.awt.", "sun.", "com.sun."};

    private HazelcastHardening() {
    }

    /**
     * Starts the embedded member with {@code config} hardened ({@link #apply}), refusing the join of
     * members outside {@code allowlist} (null: any address).
     */
    static HazelcastInstance newMember(Config config, MemberAllowlist allowlist) {
        apply(config);
        if (allowlist == null) {
            return Hazelcast.newHazelcastInstance(config);
        }
        LOG.infof("ketama: members may join only from %s (%s)", allowlist, MemberAllowlist.KEY);
        return HazelcastInstanceFactory.newHazelcastInstance(config, config.getInstanceName(), new AllowlistNodeContext(allowlist));
    }

    static void apply(Config config) {
        if (config.getSerializationConfig().getJavaSerializationFilterConfig() != null) {
            LOG.infof("ketama: the Hazelcast configuration has its own Java deserialization filter; keeping it");
            return;
        }
        config.getSerializationConfig().setJavaSerializationFilterConfig(javaSerializationFilter());
    }

    static JavaSerializationFilterConfig javaSerializationFilter() {
        return new JavaSerializationFilterConfig()
                .setDefaultsDisabled(false)
                .setWhitelist(new ClassFilter().addPrefixes(OWN_PREFIX))
                .setBlacklist(new ClassFilter().addPrefixes(REFUSED_PREFIXES));
    }
}
