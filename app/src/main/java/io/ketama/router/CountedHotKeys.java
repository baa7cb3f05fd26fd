package io.ketama.router;

import io.ketama.quarkus.HotKeySource;
import io.ketama.router.hot.HotKeys;
import jakarta.inject.Singleton;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The keys {@link HotKeys} counts entering this member, for the extension's Dev UI card and the ring
 * picture ({@code GET /ring} as SVG). Those hash a key's UTF-8 text, this service its raw bytes (held
 * as ISO-8859-1 text, a char a byte): a key whose bytes are not UTF-8 is left out rather than shown
 * on an owner that is not its own.
 */
@Singleton
class CountedHotKeys implements HotKeySource {

    private final HotKeys hot;

    CountedHotKeys(HotKeys hot) {
        this.hot = hot;
    }

    @Override
    public List<HotKey> heaviest() {
        List<HotKey> out = new ArrayList<>();
        for (HotKeys.HotKey k : hot.top()) {
            String text = utf8(k.key());
            if (text != null) {
                out.add(new HotKey(text, Math.round(k.rate() * 10) / 10.0));
            }
        }
        return out;
    }

    private static String utf8(String raw) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(raw.getBytes(StandardCharsets.ISO_8859_1))).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
