package dev.ledgerlink.callbacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DisablePolicyTest {
    private final DisablePolicy fiveDays = new DisablePolicy(Settings.defaults().duration(Setting.DELIVERY_DISABLE_AFTER));
    private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void publishedDefaultWindowIsFiveDays() {
        assertEquals(Duration.ofDays(5), fiveDays.window());
    }

    @Test
    void aCallbackIsDisabledOnlyOnceItHasFailedForTheWholeWindow() {
        assertFalse(fiveDays.shouldDisable(t0, t0.plus(Duration.ofDays(5)).minusSeconds(1)));
        assertTrue(fiveDays.shouldDisable(t0, t0.plus(Duration.ofDays(5))));
        assertTrue(fiveDays.shouldDisable(t0, t0.plus(Duration.ofDays(9))));
    }

    @Test
    void aCallbackThatIsNotFailingIsNeverDisabled() {
        assertFalse(fiveDays.shouldDisable(null, t0.plus(Duration.ofDays(100))));
    }

    @Test
    void cutoffIsNowMinusTheWindow() {
        assertEquals(t0, fiveDays.cutoff(t0.plus(Duration.ofDays(5))));
    }
}
