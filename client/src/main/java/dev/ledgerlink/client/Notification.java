package dev.ledgerlink.client;

import dev.ledgerlink.signature.FormParams;
import dev.ledgerlink.signature.ServiceSignature;

/**
 * What a receiver gets: an event notification or the verification request of its callback. Parse the
 * raw form body, check the X-Service-Hmac-SHA256 header with the callback's verification code (the
 * same signature code the service signs with), then act on it.
 *
 * <pre>{@code
 * Notification n = Notification.parse(body);
 * if (n.isVerification()) callbacks.verify(n.objectId(), n.verifier());
 * else if (Notification.isAuthentic(code, body, request.header("X-Service-Hmac-SHA256"))) handle(n);
 * }</pre>
 */
public record Notification(String name, long objectId, String accountId, long userId, String verifier) {
    public static final String SIGNATURE_HEADER = ServiceSignature.HEADER;

    public static Notification parse(String formBody) {
        FormParams p = FormParams.parse(formBody);
        return new Notification(p.get("name"), parseLong(p.get("object_id")), p.get("account_id"),
                parseLong(p.get("user_id")), p.get("verifier"));
    }

    /** True when {@code header} is the signature of {@code formBody} under the verification code; constant time. */
    public static boolean isAuthentic(String verificationCode, String formBody, String header) {
        return header != null && ServiceSignature.verify(verificationCode, formBody, header);
    }

    /** The verification request of a callback: send {@link #verifier()} back for callback {@link #objectId()}. */
    public boolean isVerification() {
        return FormParams.VERIFY_EVENT.equals(name);
    }

    private static long parseLong(String s) {
        try {
            return s == null ? 0 : Long.parseLong(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
