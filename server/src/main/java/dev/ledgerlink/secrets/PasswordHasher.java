package dev.ledgerlink.secrets;

import com.password4j.Argon2Function;
import com.password4j.Password;
import com.password4j.types.Argon2;

/**
 * Argon2id for user passwords (OWASP: 19 MiB, 2 iterations, 1 lane). Used only at login, never on
 * the token endpoint. Unknown users are checked against a dummy hash so that a login with an unknown
 * e-mail takes as long as one with a wrong password.
 */
public final class PasswordHasher {
    private static final Argon2Function ARGON2ID = Argon2Function.getInstance(19 * 1024, 2, 1, 32, Argon2.ID);
    private static final String DUMMY_HASH = hash("dummy password that nobody has");

    private PasswordHasher() {}

    public static String hash(String password) {
        return Password.hash(password).addRandomSalt(16).with(ARGON2ID).getResult();
    }

    public static boolean verify(String password, String storedHash) {
        String hash = storedHash == null ? DUMMY_HASH : storedHash;
        boolean ok;
        try {
            ok = Password.check(password, hash).with(Argon2Function.getInstanceFromHash(hash));
        } catch (RuntimeException malformed) {
            ok = false;
        }
        return ok && storedHash != null;
    }
}
