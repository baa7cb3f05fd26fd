package io.ketama.quarkus.deployment;

import io.ketama.quarkus.HotKeySource;
import jakarta.inject.Singleton;
import java.util.List;

/** An application's hot keys for the Dev UI card's test: two keys at fixed rates. */
@Singleton
public class FixedHotKeys implements HotKeySource {

    static final List<HotKey> KEYS = List.of(new HotKey("images/hot.png", 120.5), new HotKey("videos/warm.mp4", 17.0));

    @Override
    public List<HotKey> heaviest() {
        return KEYS;
    }
}
