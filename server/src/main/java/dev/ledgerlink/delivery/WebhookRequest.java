package dev.ledgerlink.delivery;

import dev.ledgerlink.signature.FormParams;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.signature.StandardWebhooks;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The body and headers of one attempt: the form, its two signatures, the message id. Pure.
 * {@code recordedBody} is the body as the attempt's history keeps it: a verification request's code
 * is replaced by {@link AttemptRecord#REDACTED}, the only secret a request carries.
 */
record WebhookRequest(String body, Map<String, String> headers, String recordedBody) {
    static final String CONTENT_TYPE = "application/x-www-form-urlencoded";

    static WebhookRequest build(ClaimedDelivery d, String code, long attemptSeconds, String userAgent) {
        // A test delivery of development mode may be dated back or have its signatures spoiled: TestDelivery's rule.
        TestDelivery test = d.test() == null || d.isVerification() ? null : d.test().options();
        long timestampSeconds = test == null ? attemptSeconds : test.timestamp(attemptSeconds);
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
        if (test != null) test.apply(headers);
        return new WebhookRequest(body, headers, recorded);
    }
}
