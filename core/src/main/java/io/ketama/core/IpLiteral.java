package io.ketama.core;

/**
 * Parses and prints IP address literals without ever resolving a name.
 *
 * <p>{@link java.net.InetAddress#getByName(String)} would look a host name up in DNS, and
 * {@link java.net.InetAddress#getHostAddress()} prints IPv6 as {@code 0:0:0:0:0:0:0:1}; ring
 * identities need neither. Printing follows RFC 5952 as Rust's {@code Ipv6Addr} does, so pingora
 * style identities hash the same text pingora-ketama hashes.
 */
final class IpLiteral {

    private IpLiteral() {
    }

    /** The 4 or 16 address bytes of an IPv4 dotted quad or an IPv6 literal (scope id ignored), else null. */
    static byte[] parse(String text) {
        if (text.indexOf(':') >= 0) {
            return parseIpv6(text);
        }
        return parseIpv4(text, 0, text.length());
    }

    /** Strict dotted quad: four decimal parts 0..255, no leading zeros beyond a single 0. */
    static byte[] parseIpv4(String s, int from, int to) {
        byte[] out = new byte[4];
        int part = 0;
        int i = from;
        while (part < 4) {
            int start = i;
            int value = 0;
            while (i < to && s.charAt(i) >= '0' && s.charAt(i) <= '9' && i - start < 3) {
                value = value * 10 + (s.charAt(i) - '0');
                i++;
            }
            int digits = i - start;
            if (digits == 0 || value > 255 || (digits > 1 && s.charAt(start) == '0')) {
                return null;
            }
            out[part++] = (byte) value;
            if (part < 4) {
                if (i >= to || s.charAt(i) != '.') {
                    return null;
                }
                i++;
            }
        }
        return i == to ? out : null;
    }

    static byte[] parseIpv6(String text) {
        int end = text.indexOf('%');
        String s = end >= 0 ? text.substring(0, end) : text;
        int n = s.length();
        if (n < 2) {
            return null;
        }
        int[] groups = new int[8];
        int count = 0;
        int gap = -1;
        int i = 0;
        if (s.startsWith("::")) {
            gap = 0;
            i = 2;
            if (i == n) {
                return new byte[16];
            }
        } else if (s.charAt(0) == ':') {
            return null;
        }
        byte[] v4 = null;
        while (i < n) {
            if (count == 8) {
                return null;
            }
            int start = i;
            int value = 0;
            while (i < n && hexDigit(s.charAt(i)) >= 0 && i - start < 4) {
                value = value * 16 + hexDigit(s.charAt(i));
                i++;
            }
            if (i < n && s.charAt(i) == '.') {
                // an embedded IPv4 tail takes the last two groups
                v4 = parseIpv4(s, start, n);
                if (v4 == null || count > 6) {
                    return null;
                }
                groups[count++] = ((v4[0] & 0xFF) << 8) | (v4[1] & 0xFF);
                groups[count++] = ((v4[2] & 0xFF) << 8) | (v4[3] & 0xFF);
                i = n;
                break;
            }
            if (i == start) {
                return null;
            }
            groups[count++] = value;
            if (i == n) {
                break;
            }
            if (s.charAt(i) != ':') {
                return null;
            }
            i++;
            if (i < n && s.charAt(i) == ':') {
                if (gap >= 0) {
                    return null;
                }
                gap = count;
                i++;
            } else if (i == n) {
                return null;
            }
        }
        int[] full = new int[8];
        if (gap >= 0) {
            if (count > 7) {
                return null;
            }
            int tail = count - gap;
            System.arraycopy(groups, 0, full, 0, gap);
            System.arraycopy(groups, gap, full, 8 - tail, tail);
        } else {
            if (count != 8) {
                return null;
            }
            full = groups;
        }
        byte[] out = new byte[16];
        for (int g = 0; g < 8; g++) {
            out[2 * g] = (byte) (full[g] >>> 8);
            out[2 * g + 1] = (byte) full[g];
        }
        return out;
    }

    /**
     * The value of an ASCII hex digit, else -1. Not {@link Character#digit(char, int)}, which also
     * reads other scripts' digits and fullwidth letters ({@code ١} as 1, {@code Ａ} as 10), none of
     * which an address literal may contain.
     */
    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        char lower = (char) (c | 0x20);
        return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
    }

    /** Canonical text: IPv4 dotted; IPv6 per RFC 5952 with IPv4-mapped as {@code ::ffff:a.b.c.d}. */
    static String format(byte[] address) {
        if (address.length == 4) {
            return (address[0] & 0xFF) + "." + (address[1] & 0xFF) + "." + (address[2] & 0xFF) + "." + (address[3] & 0xFF);
        }
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = ((address[2 * i] & 0xFF) << 8) | (address[2 * i + 1] & 0xFF);
        }
        if (g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0 && g[5] == 0xFFFF) {
            return "::ffff:" + (address[12] & 0xFF) + "." + (address[13] & 0xFF) + "."
                    + (address[14] & 0xFF) + "." + (address[15] & 0xFF);
        }
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder(39);
        if (bestLen < 2) {
            for (int i = 0; i < 8; i++) {
                if (i > 0) {
                    sb.append(':');
                }
                sb.append(Integer.toHexString(g[i]));
            }
            return sb.toString();
        }
        for (int i = 0; i < bestStart; i++) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
        sb.append("::");
        for (int i = bestStart + bestLen; i < 8; i++) {
            if (i > bestStart + bestLen) {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
        return sb.toString();
    }
}
