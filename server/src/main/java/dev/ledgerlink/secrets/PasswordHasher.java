package dev.ledgerlink.secrets;

import com.password4j.Argon2Function;
import com.password4j.Password;
import com.password4j.types.Argon2;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Argon2id for user passwords, at the cost of {@code secrets.argon2-memory-kib} and
 * {@code secrets.argon2-iterations} (default OWASP's: 19 MiB, 2 iterations, 1 lane; lower only in
 * development mode, see {@code config.PasswordHashSettings}). Used only at login, never on the token
 * endpoint. A stored hash is checked at the cost it records. Unknown users are checked against a
 * dummy hash of the configured cost so that a login with an unknown e-mail takes as long as one with
 * a wrong password.
 */
public final class PasswordHasher {
    /**
     * One dummy hash per cost, made at the first login of an unknown user (computing it costs as much
     * as a login, which a server start or a CLI command that checks no password need not pay).
     */
    private static final Map<String, String> DUMMY_HASHES = new ConcurrentHashMap<>();

    private final Argon2Function argon2id;
    private final String cost;

    public PasswordHasher(int memoryKib, int iterations) {
        this.argon2id = Argon2Function.getInstance(memoryKib, iterations, 1, 32, Argon2.ID);
        this.cost = memoryKib + "/" + iterations;
    }

    public String hash(String password) {
        return hash(argon2id, password);
    }

    private static String hash(Argon2Function f, String password) {
        return Password.hash(password).addRandomSalt(16).with(f).getResult();
    }

    public boolean verify(String password, String storedHash) {
        String hash = storedHash != null ? storedHash
                : DUMMY_HASHES.computeIfAbsent(cost, k -> hash(argon2id, "dummy password that nobody has"));
        boolean ok;
        try {
            ok = Password.check(password, hash).with(Argon2Function.getInstanceFromHash(hash));
        } catch (RuntimeException malformed) {
            ok = false;
        }
        return ok && storedHash != null;
    }
}
