package io.ketama.router.forwarding.hazelcast;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import java.io.IOException;

/**
 * The Hazelcast transport's task and reply as earlier releases wrote and read them, byte for byte:
 * what a member of this release reads from, and sends to, a member of an earlier one during a rolling
 * upgrade. Every release shares the ids; each class here is one release's format.
 */
final class ReleasedFormats {

    private ReleasedFormats() {
    }

    /** What every release's task and reply share: the factory and its class id. */
    abstract static class Released implements IdentifiedDataSerializable {
        private final int classId;

        Released(int classId) {
            this.classId = classId;
        }

        @Override
        public int getFactoryId() {
            return HazelcastForwarding.FACTORY_ID;
        }

        @Override
        public int getClassId() {
            return classId;
        }
    }

    /** The version-1 release's task: the key, nothing after it (its readData as released). */
    static final class V1Task extends Released {
        String key;

        V1Task() {
            super(HazelcastForwarding.TASK);
        }

        @Override
        public void writeData(ObjectDataOutput out) throws IOException {
            out.writeString(key);
        }

        @Override
        public void readData(ObjectDataInput in) throws IOException {
            key = in.readString();
        }
    }

    /** The version-2 release's task: the key and its version byte, nothing after. */
    static final class V2Task extends Released {
        String key;
        int version;

        V2Task() {
            super(HazelcastForwarding.TASK);
        }

        @Override
        public void writeData(ObjectDataOutput out) throws IOException {
            out.writeString(key);
            out.writeByte(2);
        }

        @Override
        public void readData(ObjectDataInput in) throws IOException {
            key = in.readString();
            version = in.readByte();
        }
    }

    /** The version-3 release's task: key, version byte, flags byte, nothing after. */
    static final class V3Task extends Released {
        String key;
        int version;
        int flags;

        V3Task() {
            super(HazelcastForwarding.TASK);
        }

        @Override
        public void writeData(ObjectDataOutput out) throws IOException {
            out.writeString(key);
            out.writeByte(3);
            out.writeByte(flags);
        }

        @Override
        public void readData(ObjectDataInput in) throws IOException {
            key = in.readString();
            version = in.readByte();
            flags = in.readByte();
        }
    }

    /** The version-4 release's task: key, version byte, flags, the trace where flagged; nothing after. */
    static final class V4Task extends Released {
        String key;
        int version = 4;
        int flags;
        String traceparent;
        String tracestate;

        V4Task() {
            super(HazelcastForwarding.TASK);
        }

        @Override
        public void writeData(ObjectDataOutput out) throws IOException {
            out.writeString(key);
            out.writeByte(4);
            out.writeByte(flags);
            if ((flags & HazelcastForwardTask.TRACED) != 0) {
                out.writeString(traceparent);
                out.writeString(tracestate);
            }
        }

        @Override
        public void readData(ObjectDataInput in) throws IOException {
            key = in.readString();
            version = in.readByte();
            flags = in.readByte();
            if ((flags & HazelcastForwardTask.TRACED) != 0) {
                traceparent = in.readString();
                tracestate = in.readString();
            }
        }
    }

    /** The version-4 release's reply: served or failed, up to its version byte; nothing after. */
    static final class V4Reply extends Released {
        int failure;
        String message;
        int cache;
        String servedBy;
        int status;
        String contentType;
        byte[] body;
        String location;
        int version;

        V4Reply() {
            super(HazelcastForwarding.REPLY);
        }

        @Override
        public void writeData(ObjectDataOutput out) throws IOException {
            out.writeInt(failure);
            if (failure != 0) {
                out.writeString(message);
                out.writeByte(4);
                return;
            }
            out.writeByte(cache);
            out.writeString(servedBy);
            out.writeInt(status);
            out.writeString(contentType);
            out.writeByteArray(body);
            out.writeString(location);
            out.writeByte(4);
        }

        @Override
        public void readData(ObjectDataInput in) throws IOException {
            failure = in.readInt();
            if (failure != 0) {
                message = in.readString();
                version = in.readByte();
                return;
            }
            cache = in.readByte();
            servedBy = in.readString();
            status = in.readInt();
            contentType = in.readString();
            body = in.readByteArray();
            location = in.readString();
            version = in.readByte();
        }
    }
}
