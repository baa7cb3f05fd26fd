package io.ketama.load;

/**
 * A moment worth a vertical line on a timeline chart: a migration step, a member killed or started.
 *
 * @param second seconds since the start of the run (fractions allowed)
 * @param label  short text drawn beside the line
 */
record Marker(double second, String label) {

    Marker {
        if (label == null || label.isBlank()) {
            throw new IllegalArgumentException("a marker needs a label");
        }
    }
}
