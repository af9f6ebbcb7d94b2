package dev.ledgerlink.client;

import dev.ledgerlink.signature.FormParams;
import dev.ledgerlink.signature.ServiceSignature;
import dev.ledgerlink.signature.StandardWebhooks;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What a receiver gets: an event notification or the verification request of its callback, a
 * form-encoded POST (not JSON). Keep the code of the verification request: it is the key of every
 * later signature.
 *
 * <pre>{@code
 * Notification n = Notification.parse(body);
 * if (n.isVerification()) { store(n.objectId(), n.verifier()); callbacks.verify(n.objectId(), n.verifier()); }
 * else handle(Notification.verify(codeOf(callback), body, request.headers()));   // throws when not authentic
 * }</pre>
 */
public record Notification(String name, long objectId, String accountId, long userId, String verifier) {
    public static final String SIGNATURE_HEADER = ServiceSignature.HEADER;
    /** How far a Standard Webhooks timestamp may be from now before the request counts as a replay. */
    public static final Duration TIMESTAMP_TOLERANCE = Duration.ofMinutes(5);

    /** The request was not signed with this code (or is a replay): answer it with a 4xx and do not act on it. */
    public static final class InvalidSignatureException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public InvalidSignatureException(String message) {
            super(message);
        }
    }

    /** Reads the raw form body; says nothing about whether it is authentic (see {@link #verify}). */
    public static Notification parse(String formBody) {
        FormParams p = FormParams.parse(formBody);
        return new Notification(p.get("name"), parseLong(p.get("object_id")), p.get("account_id"),
                parseLong(p.get("user_id")), p.get("verifier"));
    }

    /**
     * Parses and authenticates a received request from its raw parts: the body exactly as it arrived
     * and its headers (any map of header name to values, such as a servlet's or the JDK HttpServer's;
     * names are matched without regard to case). X-Service-Hmac-SHA256 must be the signature of the
     * body under the callback's verification code; when the Standard Webhooks headers are present,
     * their signature must match too and webhook-timestamp be within five minutes of now.
     *
     * @throws InvalidSignatureException when the request is not authentic
     */
    public static Notification verify(String verificationCode, String rawBody, Map<String, List<String>> headers) {
        return verify(verificationCode, rawBody, name -> header(headers, name), Clock.systemUTC());
    }

    /** The same, with a header lookup ({@code request::getHeader}) and the clock the timestamp is checked against. */
    public static Notification verify(String verificationCode, String rawBody, Function<String, String> header, Clock clock) {
        if (verificationCode == null || verificationCode.isEmpty()) {
            throw new InvalidSignatureException("no verification code is known for this callback: keep the one of its verification request");
        }
        if (rawBody == null) throw new InvalidSignatureException("no body");
        String signature = header.apply(SIGNATURE_HEADER);
        if (signature == null || !ServiceSignature.verify(verificationCode, rawBody, signature)) {
            throw new InvalidSignatureException(SIGNATURE_HEADER + " is missing or does not match the body under this code");
        }
        String swSignature = header.apply(StandardWebhooks.SIGNATURE);
        if (swSignature != null && !StandardWebhooks.verify(verificationCode, header.apply(StandardWebhooks.ID),
                header.apply(StandardWebhooks.TIMESTAMP), rawBody, swSignature, clock.instant(), TIMESTAMP_TOLERANCE)) {
            throw new InvalidSignatureException("the Standard Webhooks signature does not match, or webhook-timestamp is more than "
                    + TIMESTAMP_TOLERANCE.toMinutes() + " minutes from now (a replay)");
        }
        return parse(rawBody);
    }

    /** True when {@code header} is the signature of {@code formBody} under the verification code; constant time. */
    public static boolean isAuthentic(String verificationCode, String formBody, String header) {
        return header != null && ServiceSignature.verify(verificationCode, formBody, header);
    }

    /**
     * The verification code in the Standard Webhooks secret format ({@code whsec_} + base64 of its
     * UTF-8 bytes), for receivers that use the standardwebhooks or Svix libraries.
     */
    public static String standardWebhooksSecret(String verificationCode) {
        return StandardWebhooks.secret(verificationCode);
    }

    /** The verification request of a callback: send {@link #verifier()} back for callback {@link #objectId()}. */
    public boolean isVerification() {
        return FormParams.VERIFY_EVENT.equals(name);
    }

    private static String header(Map<String, List<String>> headers, String name) {
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            if (e.getKey() != null && e.getKey().equalsIgnoreCase(name) && e.getValue() != null && !e.getValue().isEmpty()) {
                return e.getValue().get(0);
            }
        }
        return null;
    }

    private static long parseLong(String s) {
        try {
            return s == null ? 0 : Long.parseLong(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
