package io.ketama.load.skew;

/**
 * Which keys a phase asks for: {@code uniform}, {@code zipf-<s>} (e.g. {@code zipf-1.1}) or
 * {@code sequential} (each key once, in order: the fill that warms the caches). Keys are the text
 * {@code <prefix><rank>} for ranks {@code 0 .. keys-1}; under Zipf rank 0 is the hottest.
 *
 * @param name     as given ({@code uniform}, {@code zipf-1.1}, {@code sequential})
 * @param exponent Zipf's {@code s}: 0 for uniform and sequential
 */
public record KeyMix(String name, double exponent) {

    public static final String RULE = "uniform, sequential or zipf-<s> with 0 < s <= " + Zipf.MAX_EXPONENT + " (e.g. zipf-1.1)";

    /** Reads a mix as written on the command line. */
    public static KeyMix parse(String text) {
        if (text.equals("uniform") || text.equals("sequential")) {
            return new KeyMix(text, 0);
        }
        if (text.startsWith("zipf-")) {
            try {
                double s = Double.parseDouble(text.substring(5));
                if (s > 0 && s <= Zipf.MAX_EXPONENT) {
                    return new KeyMix(text, s);
                }
            } catch (NumberFormatException e) {
                // below
            }
        }
        throw new IllegalArgumentException("a key mix is " + RULE + "; was '" + text + "'");
    }

    public boolean sequential() {
        return name.equals("sequential");
    }

    /** The law the ranks are drawn with (uniform: s = 0); not for a sequential mix. */
    public Zipf law(int keys) {
        return Zipf.of(keys, exponent);
    }
}
