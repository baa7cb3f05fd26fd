package io.ketama.cli;

import io.ketama.core.KetamaRing;
import io.ketama.core.NodeChange;
import io.ketama.core.RingDiff;
import java.util.Map;

/**
 * {@code diff}: the exact share of the 32-bit hash space whose owner differs between two rings
 * (see {@link RingDiff}), and what each server gains and loses, as JSON.
 */
final class DiffCommand {

    private DiffCommand() {
    }

    static String json(RingOptions before, KetamaRing<String> a, RingOptions after, KetamaRing<String> b) {
        RingDiff<String> d = RingDiff.compare(a, b);
        JsonWriter json = new JsonWriter().beginObject(false);
        ring(json.name("before"), before, a);
        ring(json.name("after"), after, b);
        if (d.keyHashesDiffer()) {
            json.field("keyHashes", "the rings hash keys differently (" + a.keyHash() + ", " + b.keyHash()
                    + "): figures are the expected share over keys, 1 - sum of (share before x share after)");
        }
        json.field("movedHashes", d.movedHashes());
        json.field("movedFraction", d.movedFraction());
        json.name("servers").beginArray(false);
        for (Map.Entry<String, NodeChange> e : d.perNode().entrySet()) {
            NodeChange c = e.getValue();
            json.beginObject(true);
            json.field("server", e.getKey());
            json.field("gainedHashes", c.gained());
            json.field("lostHashes", c.lost());
            json.field("gainedFraction", c.gainedFraction());
            json.field("lostFraction", c.lostFraction());
            json.endObject();
        }
        json.endArray();
        return json.endObject().text();
    }

    private static void ring(JsonWriter json, RingOptions o, KetamaRing<String> ring) {
        json.beginObject(true);
        json.field("servers", o.servers().toString());
        json.field("ring", ring.label());
        json.field("pointsPerWeight", o.pointsPerWeight());
        json.field("hashStyle", o.style().label());
        json.field("nodes", ring.nodeCount());
        json.field("points", ring.pointCount());
        json.endObject();
    }
}
