package io.ketama.quarkus;

import com.hazelcast.cluster.Member;

/**
 * A cluster member left out of the rings, and why (a malformed attribute, a ring identity that an
 * older member already uses, an address the hash style cannot hash).
 *
 * @param member the Hazelcast member
 * @param reason what was wrong and what is allowed
 */
public record ExcludedMember(Member member, String reason) {
}
