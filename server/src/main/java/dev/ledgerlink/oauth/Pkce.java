package dev.ledgerlink.oauth;

import dev.ledgerlink.secrets.Hashes;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.regex.Pattern;

/** RFC 7636: the shapes of code_challenge and code_verifier, and the S256 and plain checks. Pure functions. */
public final class Pkce {
    /** 43 to 128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~" (RFC 7636 §4.1 and §4.2). */
    private static final Pattern SHAPE = Pattern.compile("[A-Za-z0-9._~-]{43,128}");

    private Pkce() {}

    public static boolean isMethod(String method) {
        return "S256".equals(method) || "plain".equals(method);
    }

    public static boolean isWellFormed(String challengeOrVerifier) {
        return challengeOrVerifier != null && SHAPE.matcher(challengeOrVerifier).matches();
    }

    /** True when the verifier answers the challenge under the method (constant-time comparison). */
    public static boolean verifies(String verifier, String challenge, String method) {
        if (!isWellFormed(verifier) || challenge == null) return false;
        String expected = "S256".equals(method)
                ? Base64.getUrlEncoder().withoutPadding().encodeToString(Hashes.sha256(verifier.getBytes(StandardCharsets.US_ASCII)))
                : verifier;
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII), challenge.getBytes(StandardCharsets.US_ASCII));
    }
}
