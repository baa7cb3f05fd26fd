package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;
import org.junit.jupiter.api.Test;

/**
 * The side table of points that lost a collision: it finds exactly the positions recorded, and a
 * large one stays a hash set. About 125,000 collisions is what a ring of 32.8 M points has
 * (2,048 servers of weight 100 at 160 points per weight: 32.8 M² / 2^33).
 */
class CollisionTableTest {

    private static final int COLLISIONS = 125_000;
    /** Every 256th position collided: positions 0, 256, 512, … */
    private static final int STRIDE = 256;

    private static CollisionTable large() {
        CollisionTable.Builder b = new CollisionTable.Builder();
        for (int i = 0; i < COLLISIONS; i++) {
            b.add(i * STRIDE, 0, 1 + i % 3);
        }
        return b.build();
    }

    @Test
    void findsExactlyTheRecordedPositionsWithTheirLosers() {
        CollisionTable t = large();
        assertThat(t.size()).isEqualTo(COLLISIONS);
        for (int p = 0; p < COLLISIONS * STRIDE; p += 37) {
            int c = t.at(p);
            if (p % STRIDE == 0) {
                assertThat(c).as("position %d", p).isNotNegative();
                assertThat(t.position(c)).isEqualTo(p);
                assertThat(t.losersAt(c)).containsExactly(1 + (p / STRIDE) % 3);
            } else {
                assertThat(c).as("position %d", p).isEqualTo(-1);
            }
        }
    }

    @Test
    void homeSlotsOfALargeTableSpreadOverAllItsSlots() {
        // capacity: the power of two at least twice the collisions, 262,144 here; a home slot taken
        // from only 16 bits of the hash reaches the first 65,536 of them, where every position then
        // piles up: building took seconds and a miss scanned tens of thousands of slots
        CollisionTable t = large();
        BitSet homes = new BitSet();
        for (int p = 0; p < COLLISIONS * STRIDE; p += 13) {
            homes.set(t.slot(p));
        }
        assertThat(homes.length()).isEqualTo(262_144);
        assertThat(homes.cardinality()).isGreaterThan(250_000);
    }
}
