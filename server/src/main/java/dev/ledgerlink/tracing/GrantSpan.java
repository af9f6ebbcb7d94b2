package dev.ledgerlink.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;

/**
 * The span of one token grant: its grant type, the client once authenticated, and how it ended
 * ({@code issued}, the OAuth error code of a refusal, or {@code failed}). Exactly one of
 * {@link #issued}, {@link #refused} and {@link #failed} ends it. Nothing the client sent beyond the
 * grant type is recorded: codes, tokens and secrets never reach a span.
 */
public final class GrantSpan {
    static final GrantSpan NONE = new GrantSpan(null);
    static final String ISSUED = "issued";
    static final String FAILED = "failed";

    private final Span span;

    GrantSpan(Span span) {
        this.span = span;
    }

    /** The grant types the token endpoint knows; anything else is recorded as "unsupported" (what a client sends is not echoed). */
    static String known(String grantType) {
        if (grantType == null || grantType.isEmpty()) return "missing";
        return switch (grantType) {
            case "authorization_code", "refresh_token" -> grantType;
            default -> "unsupported";
        };
    }

    /** The client, once it has authenticated (a client_id that failed to authenticate is not recorded). */
    public void client(String clientId) {
        if (span != null) span.setAttribute(SpanNames.CLIENT_ID, clientId);
    }

    public void issued() {
        if (span == null) return;
        span.setAttribute(SpanNames.OUTCOME, ISSUED);
        span.end();
    }

    /** Refused with this OAuth error code (invalid_grant, invalid_client, ...): the client's mistake, not the server's. */
    public void refused(String oauthError) {
        if (span == null) return;
        span.setAttribute(SpanNames.OUTCOME, oauthError);
        span.end();
    }

    /** Failed on the server's side (the database unreachable, a fault): an error, with the failure's type only. */
    public void failed(RuntimeException e) {
        if (span == null) return;
        span.setAttribute(SpanNames.OUTCOME, FAILED);
        span.setAttribute(SpanNames.ERROR_TYPE, e.getClass().getName());
        span.setStatus(StatusCode.ERROR);
        span.end();
    }
}
