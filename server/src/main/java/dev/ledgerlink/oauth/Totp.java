package dev.ledgerlink.oauth;

import com.eatthepath.otp.HmacOneTimePasswordGenerator;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.OptionalLong;
import javax.crypto.spec.SecretKeySpec;
import org.apache.commons.codec.binary.Base32;

/**
 * Time-based one-time passwords (RFC 6238) as authenticator apps compute them: HMAC-SHA1, six
 * digits, 30-second steps from the Unix epoch (the HOTP of RFC 4226 over the step number, computed
 * by the java-otp library). Pure: the caller passes real time, never the sandbox's moved clock,
 * since an authenticator knows only real time.
 *
 * <p>A code is accepted for the current step and one step either side (RFC 6238 §5.2: the clocks
 * of phone and server, and the time it takes to type). Which step matched is returned, so the caller
 * can refuse that step and every older one from then on (a code works once).
 */
public final class Totp {
    public static final Duration STEP = Duration.ofSeconds(30);
    public static final int DIGITS = 6;
    /** Steps accepted either side of the current one. */
    static final int WINDOW = 1;
    /** 160 bits, RFC 4226's recommended key length for HMAC-SHA1. */
    static final int SECRET_BYTES = 20;
    private static final SecureRandom RANDOM = new SecureRandom();

    private Totp() {}

    static byte[] newSecret() {
        byte[] secret = new byte[SECRET_BYTES];
        RANDOM.nextBytes(secret);
        return secret;
    }

    /** The secret as authenticator apps take it: Base32, no padding. */
    public static String base32(byte[] secret) {
        return new Base32().encodeToString(secret).replace("=", "");
    }

    public static byte[] fromBase32(String text) {
        return new Base32().decode(text);
    }

    /** The key URI an authenticator scans (the de-facto otpauth format): issuer, account, secret, and RFC 6238's defaults spelled out. */
    static String keyUri(String issuer, String account, String base32Secret) {
        String label = encode(issuer) + ":" + encode(account);
        return "otpauth://totp/" + label + "?secret=" + base32Secret + "&issuer=" + encode(issuer)
                + "&algorithm=SHA1&digits=" + DIGITS + "&period=" + STEP.toSeconds();
    }

    static long stepAt(Instant now) {
        return Math.floorDiv(now.getEpochSecond(), STEP.toSeconds());
    }

    /** The code of {@code step}. */
    public static String codeAt(byte[] secret, long step) {
        try {
            return new HmacOneTimePasswordGenerator(DIGITS).generateOneTimePasswordString(new SecretKeySpec(secret, "HmacSHA1"), step, Locale.ROOT);
        } catch (InvalidKeyException e) {
            throw new IllegalStateException("an HMAC-SHA1 key of " + secret.length + " bytes", e);
        }
    }

    /** The step within the window around {@code now} whose code {@code code} is (each compared in constant time), or empty. */
    static OptionalLong matchingStep(byte[] secret, String code, Instant now) {
        if (code == null || code.length() != DIGITS || !code.chars().allMatch(Character::isDigit)) return OptionalLong.empty();
        long current = stepAt(now);
        long matched = -1;
        for (long step = current - WINDOW; step <= current + WINDOW; step++) {
            if (dev.ledgerlink.secrets.Hashes.constantTimeEquals(codeAt(secret, step), code)) matched = step;
        }
        return matched < 0 ? OptionalLong.empty() : OptionalLong.of(matched);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
