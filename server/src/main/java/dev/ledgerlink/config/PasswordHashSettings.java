package dev.ledgerlink.config;

/**
 * The Argon2id cost of user password hashes, checked once at start. Outside development mode the
 * cost may not fall below OWASP's minimum (19 MiB, 2 iterations): a production server never hashes
 * passwords cheaply by mistake. In development mode any cost Argon2 accepts is allowed, so a test
 * suite or a laptop can create many users quickly (the test servers use 64 KiB and 1 iteration).
 * A hash records its own cost, so hashes made with one cost still verify after it changes.
 */
public record PasswordHashSettings(int memoryKib, int iterations) {
    public static final int OWASP_MEMORY_KIB = 19 * 1024;
    public static final int OWASP_ITERATIONS = 2;
    /** Argon2's own lower bound for one lane: 8 KiB. */
    public static final int ARGON2_MIN_MEMORY_KIB = 8;
    /** An upper bound against a typo that would take the heap (1 GiB per hash). */
    public static final int MAX_MEMORY_KIB = 1024 * 1024;

    public static PasswordHashSettings from(Settings s) {
        var p = new PasswordHashSettings(s.integer(Setting.PASSWORD_HASH_MEMORY_KIB), s.integer(Setting.PASSWORD_HASH_ITERATIONS));
        p.check(s.flag(Setting.DEV));
        return p;
    }

    private void check(boolean devMode) {
        if (memoryKib < ARGON2_MIN_MEMORY_KIB || memoryKib > MAX_MEMORY_KIB) {
            throw invalid(Setting.PASSWORD_HASH_MEMORY_KIB, "must be between " + ARGON2_MIN_MEMORY_KIB + " and " + MAX_MEMORY_KIB + ", got " + memoryKib);
        }
        if (iterations < 1) throw invalid(Setting.PASSWORD_HASH_ITERATIONS, "must be at least 1, got " + iterations);
        if (devMode) return;
        if (memoryKib < OWASP_MEMORY_KIB) {
            throw invalid(Setting.PASSWORD_HASH_MEMORY_KIB, "must be at least " + OWASP_MEMORY_KIB + " (OWASP's minimum) outside development mode, got " + memoryKib);
        }
        if (iterations < OWASP_ITERATIONS) {
            throw invalid(Setting.PASSWORD_HASH_ITERATIONS, "must be at least " + OWASP_ITERATIONS + " (OWASP's minimum) outside development mode, got " + iterations);
        }
    }

    private static ConfigurationException invalid(Setting s, String why) {
        return new ConfigurationException(s.key() + " " + why);
    }
}
