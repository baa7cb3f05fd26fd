package io.ketama.router.caching;

/**
 * One range of bytes of a representation (RFC 9110 §14.1.2), as a cache serves it from a stored
 * complete answer with {@code 206 Partial Content}, or the mark that the request's range cannot be
 * satisfied ({@code 416}).
 *
 * <p>All unsatisfiable ranges are {@link #equals equal} to {@link #UNSATISFIABLE}, whatever complete
 * length they carry: compare with {@code equals} or {@link #isUnsatisfiable()}, not {@code ==}.
 * {@link CachePolicy#range} returns one made by {@link #unsatisfiable(long)}, whose
 * {@link #contentRange()} is the {@code Content-Range} a 416 carries.
 *
 * @param first          the first byte's offset, from 0; -1 when unsatisfiable
 * @param last           the last byte's offset, inclusive; -1 when unsatisfiable
 * @param completeLength the length of the whole representation; -1 when not known
 */
public record ByteRange(long first, long last, long completeLength) {

    /** The range of a request that no byte of the representation satisfies, complete length not known. */
    public static final ByteRange UNSATISFIABLE = new ByteRange(-1, -1, -1);

    /**
     * @throws IllegalArgumentException unless {@code 0 <= first <= last < completeLength}, or
     *                                  {@code first == last == -1} (unsatisfiable) with {@code completeLength >= -1}
     */
    public ByteRange {
        boolean unsatisfiable = first == -1 && last == -1 && completeLength >= -1;
        if (!unsatisfiable && !(0 <= first && first <= last && last < completeLength)) {
            throw new IllegalArgumentException("a byte range has 0 <= first <= last < completeLength, was " + first + "-" + last
                    + "/" + completeLength);
        }
    }

    /** Bytes {@code first} to {@code last} of {@code completeLength}. */
    public static ByteRange of(long first, long last, long completeLength) {
        return new ByteRange(first, last, completeLength);
    }

    /** An unsatisfiable range of a representation of {@code completeLength} bytes. */
    public static ByteRange unsatisfiable(long completeLength) {
        if (completeLength < 0) {
            throw new IllegalArgumentException("a complete length is at least 0, was " + completeLength);
        }
        return new ByteRange(-1, -1, completeLength);
    }

    public boolean isUnsatisfiable() {
        return first < 0;
    }

    /** How many bytes it spans; 0 when unsatisfiable. */
    public long length() {
        return isUnsatisfiable() ? 0 : last - first + 1;
    }

    /**
     * Its {@code Content-Range} value: {@code bytes first-last/complete}, or {@code bytes *}{@code /complete}
     * when unsatisfiable (RFC 9110 §14.4).
     *
     * @throws IllegalStateException for {@link #UNSATISFIABLE} itself, whose complete length is not known
     */
    public String contentRange() {
        if (isUnsatisfiable()) {
            if (completeLength < 0) {
                throw new IllegalStateException("the complete length is not known: use ByteRange.unsatisfiable(length)");
            }
            return "bytes */" + completeLength;
        }
        return "bytes " + first + "-" + last + "/" + completeLength;
    }

    /** Equal when both are unsatisfiable, or when first, last and complete length are. */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ByteRange r)) {
            return false;
        }
        if (isUnsatisfiable() || r.isUnsatisfiable()) {
            return isUnsatisfiable() && r.isUnsatisfiable();
        }
        return first == r.first && last == r.last && completeLength == r.completeLength;
    }

    @Override
    public int hashCode() {
        return isUnsatisfiable() ? -1 : Long.hashCode(first) * 31 * 31 + Long.hashCode(last) * 31 + Long.hashCode(completeLength);
    }
}
