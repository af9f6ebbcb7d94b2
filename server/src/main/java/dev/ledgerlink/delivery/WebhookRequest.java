package dev.ledgerlink.delivery;

import dev.ledgerlink.signature.FormParams;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.signature.StandardWebhooks;
import dev.ledgerlink.tracing.TraceHeaders;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The body and headers of one attempt: the form, its two signatures, the message id, the W3C trace
 * context (traceparent, and tracestate when there is one; outside the signatures), as the delivery's
 * variant has them (DeliveryHooks: development mode may date a test delivery back or spoil its
 * signatures; a plain delivery is as built). Pure.
 * {@code recordedBody} is the body as the attempt's history keeps it: a verification request's code
 * is replaced by {@link AttemptRecord#REDACTED}, the only secret a request carries.
 */
record WebhookRequest(String body, Map<String, String> headers, String recordedBody) {
    static final String CONTENT_TYPE = "application/x-www-form-urlencoded";

    static WebhookRequest build(ClaimedDelivery d, String code, long attemptSeconds, String userAgent, TraceHeaders trace) {
        long timestampSeconds = d.variant().timestamp(attemptSeconds);
        FormParams params = d.isVerification()
                ? FormParams.verification(d.callbackId(), code, d.callbackAccountId(), d.callbackUserId())
                : FormParams.notification(d.eventName(), d.objectId(), d.eventAccountId(), d.eventUserId());
        String body = params.formEncoded();
        String recorded = d.isVerification()
                ? FormParams.verification(d.callbackId(), AttemptRecord.REDACTED, d.callbackAccountId(), d.callbackUserId()).formEncoded()
                : body;
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", CONTENT_TYPE);
        headers.put("User-Agent", userAgent);
        headers.put(ServiceSignature.HEADER, ServiceSignature.sign(code, params));
        headers.put("X-Service-Event-Id", d.messageId());
        headers.put(StandardWebhooks.ID, d.messageId());
        headers.put(StandardWebhooks.TIMESTAMP, Long.toString(timestampSeconds));
        headers.put(StandardWebhooks.SIGNATURE, StandardWebhooks.sign(code, d.messageId(), timestampSeconds, body));
        headers.put(TraceHeaders.TRACEPARENT, trace.traceparent());
        if (trace.tracestate() != null) headers.put(TraceHeaders.TRACESTATE, trace.tracestate());
        d.variant().alter(headers);
        return new WebhookRequest(body, headers, recorded);
    }
}
