package io.ketama.router;

/** What a field name is (RFC 9110 §5.1: a token), for settings that name fields. */
final class FieldNames {

    private static final String TCHAR_SYMBOLS = "!#$%&'*+-.^_`|~";

    private FieldNames() {
    }

    /** Whether {@code name} is a token: one or more letters, digits and {@code !#$%&'*+-.^_`|~}. */
    static boolean isToken(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || TCHAR_SYMBOLS.indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
