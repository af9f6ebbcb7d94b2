package dev.ledgerlink.config;

import java.util.Locale;

/**
 * What a rate limit may be (docs/delivery.md "Pace"): a whole number of deliveries per second from 1
 * to 10,000, or none. The one rule for the setting delivery.rate-limit, the admin API's PATCH of a
 * callback and {@code ledgerlink callbacks set --rate-limit}.
 */
public final class RateLimit {
    public static final int MAX = 10_000;
    /** The error text after the field's name; each caller adds how "no limit" is written there. */
    public static final String RULE = "must be a whole number of deliveries per second from 1 to " + MAX;

    private RateLimit() {}

    public static boolean valid(long perSecond) {
        return perSecond >= 1 && perSecond <= MAX;
    }

    /**
     * A limit as text: "none" (any case) or empty is no limit (null); a number is checked.
     *
     * @throws IllegalArgumentException with {@link #RULE} when it is neither
     */
    public static Integer parse(String text) {
        String t = text == null ? "" : text.trim();
        if (t.isEmpty() || t.toLowerCase(Locale.ROOT).equals("none")) return null;
        if (t.matches("[0-9]{1,9}") && valid(Long.parseLong(t))) return Integer.valueOf(t);
        throw new IllegalArgumentException(RULE);
    }

    /** A limit as text, the inverse of {@link #parse}. */
    public static String text(Integer perSecond) {
        return perSecond == null ? "none" : perSecond.toString();
    }
}
