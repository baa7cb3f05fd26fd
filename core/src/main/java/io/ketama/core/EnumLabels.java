package io.ketama.core;

import java.util.Locale;
import java.util.StringJoiner;

/**
 * The one text form of this project's enum constants, in configuration, command lines, metrics
 * tags and JSON alike: the constant's name in lower case with {@code _} written as {@code -}
 * ({@code V2} is {@code v2}). It is the form SmallRye Config accepts for an enum-typed key, so a
 * label is exactly what a configuration value may say.
 */
public final class EnumLabels {

    private EnumLabels() {
    }

    /** {@code constant}'s label: lower case, {@code _} as {@code -}. */
    public static String label(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The labels of every constant of {@code type}, in declaration order, comma-separated. */
    public static String allowed(Class<? extends Enum<?>> type) {
        StringJoiner out = new StringJoiner(", ");
        for (Enum<?> e : type.getEnumConstants()) {
            out.add(label(e));
        }
        return out.toString();
    }

    /**
     * The constant of {@code type} whose label is {@code text}, ignoring case and surrounding blanks.
     *
     * @param what names the value in the error (a configuration key, an option, "ring version")
     * @throws IllegalArgumentException "{@code what} must be one of …, was '…'" when none matches
     */
    public static <E extends Enum<E>> E parse(Class<E> type, String text, String what) {
        String t = text == null ? "" : text.trim();
        for (E e : type.getEnumConstants()) {
            if (label(e).equalsIgnoreCase(t)) {
                return e;
            }
        }
        throw new IllegalArgumentException(what + " must be one of " + allowed(type) + ", was '" + text + "'");
    }
}
