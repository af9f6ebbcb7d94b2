package dev.ledgerlink.signature;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Base64 HMAC-SHA256 keyed with a verification code's UTF-8 bytes (or raw key bytes), and a constant-time compare. */
final class Hmac {
    private Hmac() {}

    static String base64(String code, String message) {
        return base64(code, message.getBytes(StandardCharsets.UTF_8));
    }

    static String base64(String code, byte[] message) {
        return base64(code.getBytes(StandardCharsets.UTF_8), message);
    }

    static String base64(byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(message));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    static boolean equal(String expected, String given) {
        if (given == null) return false;
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), given.trim().getBytes(StandardCharsets.UTF_8));
    }
}
