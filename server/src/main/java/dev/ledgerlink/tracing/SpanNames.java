package dev.ledgerlink.tracing;

import io.opentelemetry.api.common.AttributeKey;

/**
 * Every span name and attribute key ledgerlink records (docs/operations.md, "How to trace a
 * delivery"). HTTP requests follow OpenTelemetry's HTTP conventions (span "{method} {route}");
 * the others are ledgerlink's own. No attribute ever holds a token, a code, a secret, a request
 * body or a callback URI (which may carry a receiver's own secret in its query).
 */
final class SpanNames {
    private SpanNames() {}

    static final String SERVICE = "ledgerlink";
    static final String INSTRUMENTATION = "dev.ledgerlink";

    static final String GRANT = "oauth.token_grant";
    static final String PUBLISH = "events.publish";
    static final String ATTEMPT = "webhook.attempt";

    // HTTP server spans (OpenTelemetry semantic conventions)
    static final AttributeKey<String> HTTP_METHOD = AttributeKey.stringKey("http.request.method");
    static final AttributeKey<String> HTTP_ROUTE = AttributeKey.stringKey("http.route");
    static final AttributeKey<String> URL_PATH = AttributeKey.stringKey("url.path");
    static final AttributeKey<Long> HTTP_STATUS = AttributeKey.longKey("http.response.status_code");
    static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("ledgerlink.request_id");

    // token grants
    static final AttributeKey<String> GRANT_TYPE = AttributeKey.stringKey("oauth.grant_type");
    static final AttributeKey<String> CLIENT_ID = AttributeKey.stringKey("oauth.client_id");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("ledgerlink.outcome");

    // publishes
    static final AttributeKey<Long> EVENT_ID = AttributeKey.longKey("ledgerlink.event.id");
    static final AttributeKey<String> EVENT_NAME = AttributeKey.stringKey("ledgerlink.event.name");
    static final AttributeKey<String> ACCOUNT_ID = AttributeKey.stringKey("ledgerlink.account_id");
    static final AttributeKey<Long> DELIVERIES = AttributeKey.longKey("ledgerlink.event.deliveries");

    // webhook attempts
    static final AttributeKey<Long> DELIVERY_ID = AttributeKey.longKey("ledgerlink.delivery.id");
    static final AttributeKey<Long> CALLBACK_ID = AttributeKey.longKey("ledgerlink.callback.id");
    static final AttributeKey<Long> ATTEMPT_NUMBER = AttributeKey.longKey("ledgerlink.delivery.attempt");
    static final AttributeKey<Long> DURATION_MS = AttributeKey.longKey("ledgerlink.delivery.duration_ms");
    static final AttributeKey<String> ERROR = AttributeKey.stringKey("ledgerlink.delivery.error");

    /** The kind of failure, never its message (a driver's message can quote the values of a statement). */
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
}
