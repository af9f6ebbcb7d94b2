package dev.ledgerlink.secrets;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Fast hashing for high-entropy secrets (tokens, codes, client secrets). These are 256-bit random
 * strings: a plain SHA-256 makes them useless if the database leaks, and a slow password hash here
 * would only cap the token endpoint. User passwords go through {@link PasswordHasher} instead.
 */
public final class Hashes {
    private Hashes() {}

    public static String sha256Hex(String value) {
        return HexFormat.of().formatHex(sha256(value.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * The 32 bytes themselves, not their hex: how access and refresh tokens' hashes are stored
     * (oauth/TokenFormat hashes a token's secret; a token issued before V22, the whole string).
     * Half the bytes of the hex, compared as bytes (docs/benchmarks-history.md, "Token hashes as bytes").
     */
    public static byte[] sha256(String value) {
        return sha256(value.getBytes(StandardCharsets.UTF_8));
    }

    public static byte[] sha256(byte[] value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** Compares two strings in time that depends only on their lengths. */
    public static boolean constantTimeEquals(String a, String b) {
        if (a == null || b == null) return false;
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
