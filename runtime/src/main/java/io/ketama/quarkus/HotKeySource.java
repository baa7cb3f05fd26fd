package io.ketama.quarkus;

import java.util.List;

/**
 * The heaviest keys an application counts where they enter, for the Dev UI card (their rates and
 * owners) and the ring picture ({@link RingPicture} marks them on the circle). Optional: an
 * application that counts no keys has no bean of this type, and the card says so.
 */
public interface HotKeySource {

    /** A key and the requests a second that ask for it here. */
    record HotKey(String key, double rate) {
    }

    /** Heaviest first; empty when nothing is hot. */
    List<HotKey> heaviest();
}
