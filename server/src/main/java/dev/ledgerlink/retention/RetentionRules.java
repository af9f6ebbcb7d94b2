package dev.ledgerlink.retention;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.delivery.DeliveryRetention;
import dev.ledgerlink.events.EventRetention;
import dev.ledgerlink.notifications.NotificationRetention;
import dev.ledgerlink.oauth.TokenRetention;
import java.time.Duration;
import java.util.List;

/**
 * Every table that grows with use and how long its rows are kept, in the order a pass removes them
 * (children before the rows they reference: attempts, deliveries, then events; tokens, then grants).
 */
public final class RetentionRules {
    private RetentionRules() {}

    public static List<RetentionRule> of(Settings s) {
        Duration deliveries = s.duration(Setting.RETENTION_DELIVERIES);
        Duration events = s.duration(Setting.RETENTION_EVENTS);
        Duration tokens = s.duration(Setting.RETENTION_TOKENS);
        return List.of(
                new RetentionRule("delivery_attempts", "delivery_attempts", DeliveryRetention.ATTEMPTS_OF_FINISHED, deliveries, "attempted_at"),
                new RetentionRule("deliveries", "deliveries", DeliveryRetention.FINISHED, deliveries, "created_at"),
                new RetentionRule("events", "events", EventRetention.UNREFERENCED, events, "created_at"),
                new RetentionRule("access_tokens", "oauth_access_tokens", TokenRetention.DEAD_ACCESS_TOKENS, tokens, "created_at"),
                new RetentionRule("refresh_tokens", "oauth_refresh_tokens", TokenRetention.DEAD_REFRESH_TOKENS, tokens, "created_at"),
                new RetentionRule("legacy_token_hashes", "oauth_legacy_token_hashes", TokenRetention.ORPHANED_LEGACY_HASHES, tokens, "migrated_at"),
                new RetentionRule("authorization_codes", "oauth_authorization_codes", TokenRetention.EXPIRED_CODES, tokens, "created_at"),
                new RetentionRule("grants", "oauth_grants", TokenRetention.EMPTY_GRANTS, tokens, "created_at"),
                new RetentionRule("login_sessions", "oauth_login_sessions", TokenRetention.EXPIRED_LOGIN_SESSIONS, Duration.ZERO, "created_at"),
                new RetentionRule("login_failures", "oauth_login_failures", TokenRetention.OLD_LOGIN_FAILURES, s.duration(Setting.LOGIN_THROTTLE_WINDOW),
                        "failed_at"),
                new RetentionRule("operator_notifications", "operator_notifications", NotificationRetention.FINISHED, deliveries, "created_at"));
    }
}
