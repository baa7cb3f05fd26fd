package io.ketama.quarkus.runtime;

import io.ketama.core.RingVersion;
import io.ketama.quarkus.MigrationSettings;

/**
 * Decides, per key, which ring serves it under one {@link MigrationSettings}. Immutable; replaced
 * whole when the settings change.
 *
 * <p>In split mode a key goes to v2 iff {@code mix(crc32(key)) < share/100 × 2^32}, unsigned.
 * {@code mix} is a bijective avalanche mixer (murmur3's 32-bit finaliser), so the v2 keys are
 * spread evenly around the circle rather than being one arc of it, and the decision for a key
 * depends only on the key and the share: sticky (the same every time) and monotone (raising the
 * share only moves keys from v1 to v2). The threshold has 2^32 steps, far finer than 0.01 %.
 */
final class MigrationSplit {

    private static final double CIRCLE = 4294967296.0;

    private final MigrationSettings settings;
    private final boolean splitAllowed;
    private final long threshold;

    MigrationSplit(MigrationSettings settings, boolean splitAllowed) {
        this.settings = settings;
        this.splitAllowed = splitAllowed;
        this.threshold = Math.round(settings.v2SharePercent() / 100.0 * CIRCLE);
    }

    MigrationSettings settings() {
        return settings;
    }

    /** The ring that serves a key whose CRC-32 is {@code keyHash}. */
    public RingVersion versionFor(int keyHash) {
        return switch (settings.mode()) {
            case V1 -> RingVersion.V1;
            case V2 -> RingVersion.V2;
            case SPLIT -> splitAllowed && Integer.toUnsignedLong(mix(keyHash)) < threshold ? RingVersion.V2 : RingVersion.V1;
        };
    }

    /** The percentage of keys this split sends to v2 (0 in split mode outside the allowed data centres). */
    double v2Percent() {
        return switch (settings.mode()) {
            case V1 -> 0;
            case V2 -> 100;
            case SPLIT -> splitAllowed ? settings.v2SharePercent() : 0;
        };
    }

    public boolean shadow() {
        return settings.shadow();
    }

    /** murmur3 fmix32: a bijection of the 32-bit integers in which every input bit affects every output bit. */
    static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
