package io.ketama.router;

import com.hazelcast.cluster.Member;
import io.ketama.router.serving.Members;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A member in JSON answers.
 *
 * @param address its cluster address, {@code host:port}
 * @param uuid    its Hazelcast member UUID
 * @param local   whether it is the member that answered this request
 */
@Schema(name = "Member")
record MemberView(String address, String uuid, boolean local) {

    static MemberView of(Member member) {
        return new MemberView(Members.address(member), member.getUuid().toString(), member.localMember());
    }
}
