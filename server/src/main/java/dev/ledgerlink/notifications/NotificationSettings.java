package dev.ledgerlink.notifications;

import dev.ledgerlink.config.ConfigurationException;
import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.signature.StandardWebhooks;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** notifications.url and notifications.secret, checked once at start; empty when notifications are off. */
public record NotificationSettings(URI url, byte[] key, Duration timeout, Duration pollInterval, List<Duration> retries) {

    public static Optional<NotificationSettings> from(Settings s) {
        String url = s.get(Setting.NOTIFICATIONS_URL).trim();
        if (url.isEmpty()) return Optional.empty();
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(Setting.NOTIFICATIONS_URL.key() + " is not a URI: " + e.getMessage());
        }
        if (!("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new ConfigurationException(Setting.NOTIFICATIONS_URL.key() + " must be an absolute http or https URL");
        }
        byte[] key;
        try {
            key = StandardWebhooks.keyOf(s.get(Setting.NOTIFICATIONS_SECRET).trim());
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(Setting.NOTIFICATIONS_SECRET.key() + " is required with notifications.url: " + e.getMessage());
        }
        return Optional.of(new NotificationSettings(uri, key, s.duration(Setting.DELIVERY_TIMEOUT),
                s.duration(Setting.DELIVERY_POLL_INTERVAL), s.durations(Setting.DELIVERY_RETRY_SCHEDULE)));
    }
}
