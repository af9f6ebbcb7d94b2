package dev.ledgerlink.signature;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

/**
 * The Standard Webhooks headers (standardwebhooks.com): webhook-id, webhook-timestamp (Unix seconds)
 * and webhook-signature {@code v1,<base64 HMAC-SHA256 of "id.timestamp.body">}, keyed with the
 * verification code's UTF-8 bytes. Receivers that check the timestamp get replay protection.
 *
 * <p>Operator notifications are signed the same way with a secret in the Standard Webhooks format,
 * {@code whsec_} followed by base64 of the key bytes ({@link #keyOf}).
 */
public final class StandardWebhooks {
    public static final String ID = "webhook-id";
    public static final String TIMESTAMP = "webhook-timestamp";
    public static final String SIGNATURE = "webhook-signature";

    /** The prefix of a secret in the Standard Webhooks format. */
    public static final String SECRET_PREFIX = "whsec_";

    private StandardWebhooks() {}

    /**
     * The verification code in the Standard Webhooks secret format, for receivers using the
     * standardwebhooks or Svix libraries: {@code whsec_} + base64 of the code's UTF-8 bytes (those
     * libraries base64-decode what follows the prefix and use the bytes as the HMAC key).
     */
    public static String secret(String code) {
        return SECRET_PREFIX + java.util.Base64.getEncoder().encodeToString(code.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    public static String sign(String code, String id, long timestampSeconds, String body) {
        return sign(code.getBytes(StandardCharsets.UTF_8), id, timestampSeconds, body);
    }

    public static String sign(byte[] key, String id, long timestampSeconds, String body) {
        return "v1," + Hmac.base64(key, (id + "." + timestampSeconds + "." + body).getBytes(StandardCharsets.UTF_8));
    }

    /** The key bytes of a {@code whsec_...} secret; IllegalArgumentException when it is not one. */
    public static byte[] keyOf(String secret) {
        if (secret == null || !secret.startsWith(SECRET_PREFIX)) throw new IllegalArgumentException("a Standard Webhooks secret starts with whsec_");
        byte[] key = Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length()));
        if (key.length < 24 || key.length > 64) throw new IllegalArgumentException("a Standard Webhooks secret holds 24 to 64 bytes, this one " + key.length);
        return key;
    }


    /**
     * For receivers: true when one of the space-separated signatures in {@code header} matches and the
     * timestamp is within {@code tolerance} of {@code now}. Constant-time comparison.
     */
    public static boolean verify(String code, String id, String timestamp, String body, String header,
                                 Instant now, Duration tolerance) {
        if (id == null || timestamp == null || body == null || header == null) return false;
        long ts;
        try {
            ts = Long.parseLong(timestamp.trim());
        } catch (NumberFormatException e) {
            return false;
        }
        if (Math.abs(now.getEpochSecond() - ts) > tolerance.toSeconds()) return false;
        String expected = sign(code, id, ts, body);
        boolean ok = false;
        for (String candidate : header.trim().split(" +")) {
            ok |= Hmac.equal(expected, candidate);   // no early exit: time does not depend on which matched
        }
        return ok;
    }
}
