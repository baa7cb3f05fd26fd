package io.ketama.router.forwarding.hazelcast;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.Served;
import java.io.IOException;

/**
 * The answer to a {@link HazelcastForwardTask}: the served key, or why it was not served. Its
 * {@link ChannelVersion} is its last byte (since version 2: a version-1 member stops reading before
 * it); its failure code is one the task's sender knows ({@link ChannelVersion#code}).
 */
final class HazelcastForwardReply implements IdentifiedDataSerializable {

    private static final CacheStatus[] STATUSES = CacheStatus.values();

    /** 0 when served, else a {@link RemoteFailure} code. */
    private int failure;
    private String message;
    private Served served;
    private int version = ChannelVersion.CURRENT;
    /** The version of the member it is written for (the task's sender); not sent. */
    private transient int readerVersion = ChannelVersion.CURRENT;

    HazelcastForwardReply() {
    }

    static HazelcastForwardReply served(Served served) {
        return served(served, ChannelVersion.CURRENT);
    }

    /** The served key, for a sender that speaks {@code readerVersion} (an older one is told a cache status it knows). */
    static HazelcastForwardReply served(Served served, int readerVersion) {
        HazelcastForwardReply r = new HazelcastForwardReply();
        r.served = served;
        r.readerVersion = readerVersion;
        return r;
    }

    /** A failure any member can read (its code as {@link ChannelVersion} 1 knows it). */
    static HazelcastForwardReply failed(RemoteFailure failure, String message) {
        return failed(failure, message, ChannelVersion.UNSAID);
    }

    /** A failure for a sender that speaks {@code version}. */
    static HazelcastForwardReply failed(RemoteFailure failure, String message, int version) {
        HazelcastForwardReply r = new HazelcastForwardReply();
        r.failure = ChannelVersion.code(failure, version);
        r.message = message;
        return r;
    }

    /** The served key, or null when it failed. */
    Served served() {
        return served;
    }

    RemoteFailure failure() {
        return RemoteFailure.ofCode(failure);
    }

    String message() {
        return message;
    }

    @Override
    public int getFactoryId() {
        return HazelcastForwarding.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return HazelcastForwarding.REPLY;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeInt(failure);
        if (failure != 0) {
            out.writeString(message);
            out.writeByte(ChannelVersion.CURRENT);
            return;
        }
        out.writeByte(readerVersion >= ChannelVersion.HTTP_CACHING ? served.cache().ordinal()
                : served.cache().asOlderMembersKnowIt().ordinal());
        out.writeString(served.servedBy());
        out.writeInt(served.answer().status());
        out.writeString(served.answer().contentType());
        out.writeByteArray(served.answer().body());
        out.writeString(served.answer().location());
        out.writeByte(ChannelVersion.CURRENT);
        // after the version byte: a version-4 reader stops before it
        out.writeLong(served.answer().ageMillis(System.currentTimeMillis()));
        HazelcastForwarding.writeFields(out, served.answer().headers());
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        failure = in.readInt();
        if (failure != 0) {
            message = in.readString();
            version = HazelcastForwarding.readVersion(in);
            return;
        }
        CacheStatus cache = STATUSES[in.readByte()];
        String servedBy = in.readString();
        int status = in.readInt();
        String contentType = in.readString();
        byte[] body = in.readByteArray();
        String location = in.readString();
        version = HazelcastForwarding.readVersion(in);
        OriginAnswer answer;
        if (version >= ChannelVersion.HTTP_CACHING) {
            long age = Math.max(0, in.readLong());
            answer = new OriginAnswer(status, HazelcastForwarding.readFields(in, HazelcastForwarding.MAX_FIELDS), body,
                    System.currentTimeMillis(), age);
        } else {
            answer = new OriginAnswer(status, contentType, body, OriginAnswer.isRedirect(status) ? location : null);
        }
        served = new Served(answer, cache, servedBy);
    }

    /** The version its sender speaks (1: it said none). */
    int version() {
        return version;
    }
}
