package io.ketama.router.purge;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * A purge sent to one member: it drops what it holds of the keys and tags through its
 * {@link MemberPurge} and answers how many stored answers it dropped, or -1 where it has none (a
 * member starting or stopping, which holds nothing). A member of a release before purges cannot read
 * it: its answer is a failure, and it is named as not confirmed.
 */
final class HazelcastPurgeTask implements Callable<Integer>, IdentifiedDataSerializable, HazelcastInstanceAware {

    private List<String> keys;
    private Set<String> tags;
    private transient HazelcastInstance member;

    HazelcastPurgeTask() {
    }

    HazelcastPurgeTask(List<String> keys, Set<String> tags) {
        this.keys = keys;
        this.tags = tags;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.member = hazelcastInstance;
    }

    @Override
    public Integer call() {
        Object purge = member == null ? null : member.getUserContext().get(MemberPurge.USER_CONTEXT_KEY);
        return purge instanceof MemberPurge p ? p.apply(keys, tags) : -1;
    }

    @Override
    public int getFactoryId() {
        return PurgeSerialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return PurgeSerialization.PURGE;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeInt(keys.size());
        for (String k : keys) {
            out.writeString(k);
        }
        out.writeInt(tags.size());
        for (String t : tags) {
            out.writeString(t);
        }
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        int n = count(in);
        keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            keys.add(item(in));
        }
        int m = count(in);
        tags = new LinkedHashSet<>(m * 2);
        for (int i = 0; i < m; i++) {
            tags.add(item(in));
        }
    }

    private static int count(ObjectDataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > PurgeCommand.MAX_ITEMS) {
            throw new IOException("a purge of " + n + " items; at most " + PurgeCommand.MAX_ITEMS + " are taken");
        }
        return n;
    }

    private static String item(ObjectDataInput in) throws IOException {
        String s = in.readString();
        if (s == null || s.isEmpty()) {
            throw new IOException("a purge with an empty key or tag");
        }
        return s;
    }
}
