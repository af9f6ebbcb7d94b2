package dev.ledgerlink.callbacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class VerifierThrottleTest {
    private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

    @Test
    void fiveWrongTriesAreAllowedAndTheSixthWaitsForTheWindowToEnd() {
        VerifierThrottle.Count c = VerifierThrottle.Count.NONE;
        for (int i = 0; i < VerifierThrottle.MAX_WRONG_TRIES; i++) {
            assertNull(VerifierThrottle.waitBeforeNextTry(c, T0.plusSeconds(i)));
            c = VerifierThrottle.afterWrongTry(c, T0.plusSeconds(i));
        }
        assertEquals(5, c.failures());
        assertEquals(T0, c.since());
        assertEquals(Duration.ofMinutes(15).minusSeconds(60), VerifierThrottle.waitBeforeNextTry(c, T0.plusSeconds(60)));
        assertNull(VerifierThrottle.waitBeforeNextTry(c, T0.plus(VerifierThrottle.WINDOW)));
    }

    @Test
    void aWrongTryAfterTheWindowStartsANewOne() {
        VerifierThrottle.Count old = new VerifierThrottle.Count(5, T0);
        Instant later = T0.plus(VerifierThrottle.WINDOW).plusSeconds(1);
        assertEquals(new VerifierThrottle.Count(1, later), VerifierThrottle.afterWrongTry(old, later));
    }

    @Test
    void noCountNeverWaits() {
        assertNull(VerifierThrottle.waitBeforeNextTry(VerifierThrottle.Count.NONE, T0));
    }
}
