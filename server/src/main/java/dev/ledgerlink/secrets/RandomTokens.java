package dev.ledgerlink.secrets;

import java.security.SecureRandom;
import java.util.Base64;

/** Unguessable strings: tokens, codes, secrets and short public ids. */
public final class RandomTokens {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder URL_SAFE = Base64.getUrlEncoder().withoutPadding();
    private static final char[] ALPHANUMERIC =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

    private RandomTokens() {}

    /** {@code bytes} random bytes as URL-safe base64 without padding (32 bytes: 256 bits, 43 characters). */
    public static String urlSafe(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return URL_SAFE.encodeToString(b);
    }

    /** A random string of letters and digits, for public identifiers. */
    public static String alphanumeric(int length) {
        char[] out = new char[length];
        for (int i = 0; i < length; i++) out[i] = ALPHANUMERIC[RANDOM.nextInt(ALPHANUMERIC.length)];
        return new String(out);
    }
}
