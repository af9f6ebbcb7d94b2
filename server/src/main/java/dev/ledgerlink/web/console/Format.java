package dev.ledgerlink.web.console;

import dev.ledgerlink.delivery.DeliveryActivity;
import dev.ledgerlink.oauth.Grants;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** How the console writes times and outcomes (templates call these). Times are UTC, to the second. */
public final class Format {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

    private Format() {}

    /** A grant's token count as the grants page shows it: counts stop above Grants.COUNTED, shown as "1,000+". */
    public static String tokensCounted(int count) {
        return count > Grants.COUNTED ? String.format("%,d+", Grants.COUNTED) : String.format("%,d", count);
    }

    public static String time(Instant t) {
        return t == null ? "—" : TIME.format(t);
    }

    /** Machine-readable, for the datetime attribute of time elements. */
    public static String iso(Instant t) {
        return t == null ? "" : t.toString();
    }

    /** A span in days, hours and minutes (seconds when under a minute): "5 d 2 h 1 min". */
    public static String span(java.time.Duration d) {
        if (d.toMinutes() == 0) return d.toSeconds() + " s";
        StringBuilder b = new StringBuilder();
        if (d.toDays() > 0) b.append(d.toDays()).append(" d ");
        if (d.toHoursPart() > 0) b.append(d.toHoursPart()).append(" h ");
        if (d.toMinutesPart() > 0) b.append(d.toMinutesPart()).append(" min ");
        return b.toString().trim();
    }

    public static String minute(Instant t) {
        return MINUTE.format(t);
    }

    /** An attempt's result in words: the status, or why there was none. */
    public static String result(Integer status, String error) {
        if (status == null) return error == null ? "no response" : error;
        return "HTTP " + status;
    }

    /**
     * A callback's pace in words (docs/delivery.md "Pace"): its own rate limit, else the setting
     * delivery.rate-limit's; null when neither limits it.
     */
    public static String pace(Integer own, Integer setting) {
        if (own != null) return "at most " + own + " deliveries/s";
        if (setting != null) return "at most " + setting + " deliveries/s (delivery.rate-limit)";
        return null;
    }

    public static String outcomeClass(Integer status) {
        return DeliveryActivity.outcomeOf(status).replace('_', '-');
    }
}
