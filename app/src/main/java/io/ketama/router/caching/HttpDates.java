package io.ketama.router.caching;

/**
 * HTTP-date (RFC 9110 §5.6.7): parsing the three forms a recipient must accept, and formatting the one
 * a sender must generate. Pure arithmetic on the proleptic Gregorian calendar, no {@code java.time}
 * objects, so reading an answer's dates allocates nothing.
 *
 * <p>Accepted, and nothing else:
 * <ul>
 *   <li>IMF-fixdate {@code Sun, 06 Nov 1994 08:49:37 GMT}</li>
 *   <li>rfc850-date {@code Sunday, 06-Nov-94 08:49:37 GMT} (a two-digit year more than 50 years in the
 *       future is taken to be in the past century)</li>
 *   <li>asctime-date {@code Sun Nov  6 08:49:37 1994}</li>
 * </ul>
 * Day and month names and {@code GMT} are compared without regard to case (RFC 9110 §5.6.7 asks
 * for case-sensitive names of a sender, not of a recipient; caches in the field accept either). The
 * day name is not checked against the date. Anything else (other zones, missing comma, doubled
 * spaces, dashes in an IMF-fixdate, one-digit hours, a two-digit year in an IMF-fixdate) is invalid:
 * RFC 9111 §5.3 has an invalid {@code Expires} mean "already expired", so guessing would be worse
 * than refusing.
 */
public final class HttpDates {

    /** What {@link #parse} returns for a value that is not an HTTP-date. */
    public static final long INVALID = Long.MIN_VALUE;

    private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] LONG_DAYS = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};
    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

    private HttpDates() {
    }

    /**
     * The instant an HTTP-date names, in epoch milliseconds, or {@link #INVALID} ({@code Long.MIN_VALUE})
     * when {@code value} is null or not one of the three forms. Leading and trailing whitespace is ignored.
     */
    public static long parse(String value) {
        return parse(value, System.currentTimeMillis());
    }

    /** As {@link #parse(String)}, resolving an rfc850-date's two-digit year against {@code nowMillis}. */
    static long parse(String value, long nowMillis) {
        if (value == null) {
            return INVALID;
        }
        String s = value.strip();
        int comma = s.indexOf(',');
        if (comma == 3) {
            return imfFixdate(s);
        }
        if (comma > 3) {
            return rfc850(s, comma, nowMillis);
        }
        if (comma < 0) {
            return asctime(s);
        }
        return INVALID;
    }

    /** {@code Sun, 06 Nov 1994 08:49:37 GMT}: exactly 29 characters. */
    private static long imfFixdate(String s) {
        if (s.length() != 29 || name(s, 0, DAYS) < 0 || s.charAt(4) != ' ' || s.charAt(7) != ' ' || s.charAt(11) != ' '
                || s.charAt(16) != ' ' || s.charAt(25) != ' ' || !s.regionMatches(true, 26, "GMT", 0, 3)) {
            return INVALID;
        }
        int day = digits(s, 5, 2);
        int month = name(s, 8, MONTHS);
        int year = digits(s, 12, 4);
        return instant(year, month, day, s, 17);
    }

    /** {@code Sunday, 06-Nov-94 08:49:37 GMT}. */
    private static long rfc850(String s, int comma, long nowMillis) {
        int day = -1;
        for (String d : LONG_DAYS) {
            if (d.length() == comma && s.regionMatches(true, 0, d, 0, comma)) {
                day = 0;
            }
        }
        int p = comma + 1; // ", 06-Nov-94 08:49:37 GMT" is 24 characters from the comma
        if (day < 0 || s.length() != p + 23 || s.charAt(p) != ' ' || s.charAt(p + 3) != '-' || s.charAt(p + 7) != '-'
                || s.charAt(p + 10) != ' ' || s.charAt(p + 19) != ' ' || !s.regionMatches(true, p + 20, "GMT", 0, 3)) {
            return INVALID;
        }
        int dayOfMonth = digits(s, p + 1, 2);
        int month = name(s, p + 4, MONTHS);
        int twoDigits = digits(s, p + 8, 2);
        if (twoDigits < 0) {
            return INVALID;
        }
        // RFC 9110 §5.6.7: a year that appears more than 50 years in the future is the most recent
        // past year with those two digits; otherwise the nearest one.
        int thisYear = (int) civilYear(Math.floorDiv(nowMillis, 86_400_000L));
        int year = thisYear - Math.floorMod(thisYear, 100) + twoDigits;
        if (year > thisYear + 50) {
            year -= 100;
        } else if (year <= thisYear - 50) {
            year += 100;
        }
        return instant(year, month, dayOfMonth, s, p + 11);
    }

    /** {@code Sun Nov  6 08:49:37 1994}: exactly 24 characters, a one-digit day padded with a space. */
    private static long asctime(String s) {
        if (s.length() != 24 || name(s, 0, DAYS) < 0 || s.charAt(3) != ' ' || s.charAt(7) != ' ' || s.charAt(10) != ' '
                || s.charAt(19) != ' ') {
            return INVALID;
        }
        int month = name(s, 4, MONTHS);
        int day = s.charAt(8) == ' ' ? digits(s, 9, 1) : digits(s, 8, 2);
        int year = digits(s, 20, 4);
        return instant(year, month, day, s, 11);
    }

    /** The instant of a date and of the {@code HH:MM:SS} at {@code timeAt}; INVALID when out of range. */
    private static long instant(int year, int month, int day, String s, int timeAt) {
        if (year < 0 || month < 0 || day < 1 || s.charAt(timeAt + 2) != ':' || s.charAt(timeAt + 5) != ':') {
            return INVALID;
        }
        int hour = digits(s, timeAt, 2);
        int minute = digits(s, timeAt + 3, 2);
        int second = digits(s, timeAt + 6, 2);
        if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60 || day > daysIn(year, month + 1)) {
            return INVALID; // second 60: a leap second, which HTTP-date allows
        }
        long days = epochDay(year, month + 1, day);
        return ((days * 24 + hour) * 60 + minute) * 60_000L + second * 1000L;
    }

    /** The index of the name in {@code names} (all three letters long) at {@code at}, case ignored; -1 when none. */
    private static int name(String s, int at, String[] names) {
        if (at + 3 > s.length()) {
            return -1;
        }
        for (int i = 0; i < names.length; i++) {
            if (s.regionMatches(true, at, names[i], 0, 3)) {
                return i;
            }
        }
        return -1;
    }

    /** The decimal value of exactly {@code count} digits at {@code at}; -1 when any is not a digit. */
    private static int digits(String s, int at, int count) {
        int value = 0;
        for (int i = at; i < at + count; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static int daysIn(int year, int month) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Days from 1970-01-01 to a civil date (the well-known era arithmetic of the Gregorian calendar). */
    static long epochDay(long year, int month, int day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yearOfEra = y - era * 400;
        long dayOfYear = (153L * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097 + dayOfEra - 719_468;
    }

    /** The civil year, month (1-12) and day of an epoch day, packed as {@code year * 10_000 + month * 100 + day}. */
    private static long civil(long epochDay) {
        long z = epochDay + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long mp = (5 * dayOfYear + 2) / 153;
        long day = dayOfYear - (153 * mp + 2) / 5 + 1;
        long month = mp < 10 ? mp + 3 : mp - 9;
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        return year * 10_000 + month * 100 + day;
    }

    private static long civilYear(long epochDay) {
        return Math.floorDiv(civil(epochDay), 10_000);
    }

    /**
     * The IMF-fixdate of an instant ({@code Sun, 06 Nov 1994 08:49:37 GMT}), milliseconds dropped.
     *
     * @throws IllegalArgumentException when the year is not 0 to 9999, which IMF-fixdate cannot write
     */
    public static String format(long epochMillis) {
        long seconds = Math.floorDiv(epochMillis, 1000);
        long epochDay = Math.floorDiv(seconds, 86_400);
        int secondOfDay = (int) (seconds - epochDay * 86_400);
        long ymd = civil(epochDay);
        long year = Math.floorDiv(ymd, 10_000);
        if (year < 0 || year > 9999) {
            throw new IllegalArgumentException("an IMF-fixdate has a year of 0 to 9999, was " + year);
        }
        int month = (int) (ymd / 100 % 100);
        int day = (int) (ymd % 100);
        int dayOfWeek = (int) Math.floorMod(epochDay + 3, 7); // 1970-01-01 was a Thursday: index 3 from Monday
        StringBuilder out = new StringBuilder(29).append(DAYS[dayOfWeek]).append(", ");
        two(out, day).append(' ').append(MONTHS[month - 1]).append(' ');
        two(two(out, (int) (year / 100)), (int) (year % 100)).append(' ');
        two(out, secondOfDay / 3600).append(':');
        two(out, secondOfDay / 60 % 60).append(':');
        return two(out, secondOfDay % 60).append(" GMT").toString();
    }

    private static StringBuilder two(StringBuilder out, int value) {
        return out.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }
}
