package io.ketama.load;

/**
 * The cluster's shadow counters at one moment, summed over the members: how many selections
 * were made and in how many of them the v1 and v2 rings named different owners. NaN fields mean
 * a member's metrics could not be read.
 *
 * @param disagreements sum of {@code ketama_shadow_disagreements}
 * @param selections    sum of {@code ketama_selections}
 */
record ShadowCounters(double disagreements, double selections) {

    static final ShadowCounters ZERO = new ShadowCounters(0, 0);
    static final ShadowCounters UNKNOWN = new ShadowCounters(Double.NaN, Double.NaN);

    ShadowCounters plus(ShadowCounters other) {
        return new ShadowCounters(disagreements + other.disagreements, selections + other.selections);
    }

    /** The counts between {@code earlier} and this snapshot. */
    ShadowCounters since(ShadowCounters earlier) {
        return new ShadowCounters(disagreements - earlier.disagreements, selections - earlier.selections);
    }

    /** Disagreements per selection, NaN when unknown or when nothing was selected. */
    double rate() {
        return selections > 0 ? disagreements / selections : Double.NaN;
    }
}
