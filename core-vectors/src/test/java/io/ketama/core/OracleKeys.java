package io.ketama.core;

import java.util.List;

/** The 6,000 keys of the C programs' vectors ({@code ketama-family/keys.txt.gz}, a third non-ASCII), asked of the Java libraries too. */
final class OracleKeys {

    static final List<String> KEYS = FamilyVectors.keys();

    private OracleKeys() {
    }
}
