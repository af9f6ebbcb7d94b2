package dev.ledgerlink.secrets;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Argon2id at the configured cost; a stored hash is checked at the cost it records. */
class PasswordHasherTest {

    @Test
    void theDefaultCostIsOwaspsAndTheHashRecordsIt() {
        PasswordHasher owasp = new PasswordHasher(19 * 1024, 2);
        String hash = owasp.hash("open sesame");
        assertTrue(hash.startsWith("$argon2id$v=19$m=19456,t=2,p=1$"), hash);
        assertTrue(owasp.verify("open sesame", hash));
        assertFalse(owasp.verify("open sesame!", hash));
        assertFalse(owasp.verify("open sesame", null), "no stored hash (an unknown user) never matches");
        assertFalse(owasp.verify("open sesame", "not a hash"));
    }

    @Test
    void aHashMadeAtAnotherCostStillVerifiesAfterTheCostChanges() {
        String cheap = new PasswordHasher(64, 1).hash("open sesame");
        assertTrue(cheap.startsWith("$argon2id$v=19$m=64,t=1,p=1$"), cheap);
        assertTrue(new PasswordHasher(19 * 1024, 2).verify("open sesame", cheap));
        assertFalse(new PasswordHasher(19 * 1024, 2).verify("wrong", cheap));
    }
}
