package dev.ledgerlink.oauth;

import dev.ledgerlink.secrets.Hashes;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Recovery codes: what lets a user sign in without their authenticator, each once. Sixteen
 * characters of Crockford's Base32 alphabet (80 random bits; no i, l, o or u to misread), shown in
 * four groups ({@code 7k2m-q9xd-...}). Typed back in any case, with or without dashes and spaces, an
 * o for a zero and an i or l for a one. Stored as the SHA-256 of the normalised code only: 80 bits
 * are beyond guessing, so a fast hash is enough (as for tokens, secrets.Hashes). Pure.
 */
public final class RecoveryCodes {
    public static final int COUNT = 10;
    static final int LENGTH = 16;
    private static final String ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
    private static final SecureRandom RANDOM = new SecureRandom();

    private RecoveryCodes() {}

    /** {@link #COUNT} new codes, formatted for the user. */
    static List<String> generate() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < COUNT; i++) {
            StringBuilder code = new StringBuilder();
            for (int c = 0; c < LENGTH; c++) {
                if (c > 0 && c % 4 == 0) code.append('-');
                code.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
            }
            out.add(code.toString());
        }
        return out;
    }

    /** The code as stored (its hash), when {@code typed} has the shape of one. */
    static Optional<String> hashOf(String typed) {
        return normalised(typed).map(Hashes::sha256Hex);
    }

    static Optional<String> normalised(String typed) {
        if (typed == null || typed.length() > 64) return Optional.empty();
        StringBuilder out = new StringBuilder();
        for (char ch : typed.toLowerCase(Locale.ROOT).toCharArray()) {
            if (ch == '-' || ch == ' ') continue;
            char c = switch (ch) {
                case 'o' -> '0';
                case 'i', 'l' -> '1';
                default -> ch;
            };
            if (ALPHABET.indexOf(c) < 0) return Optional.empty();
            out.append(c);
        }
        return out.length() == LENGTH ? Optional.of(out.toString()) : Optional.empty();
    }
}
