package dev.ledgerlink.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RetryScheduleTest {
    private final RetrySchedule published = new RetrySchedule(Settings.defaults().durations(Setting.DELIVERY_RETRY_SCHEDULE));

    @Test
    void publishedDefaultIsOneMinuteFiveThirtyTwoHoursSixTwelveTwentyFour() {
        assertEquals(List.of(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(2),
                Duration.ofHours(6), Duration.ofHours(12), Duration.ofHours(24)), published.delays());
        assertEquals(8, published.maxAttempts());
    }

    @Test
    void theNthFailureWaitsTheNthDelayAndTheLastDrops() {
        for (int n = 1; n <= 7; n++) assertEquals(Optional.of(published.delays().get(n - 1)), published.delayAfter(n));
        assertEquals(Optional.empty(), published.delayAfter(8));
        assertEquals(Optional.empty(), published.delayAfter(0));
    }

    @Test
    void retryAfterIsHonouredButNeverShortensNorExtendsTheAttempts() {
        assertEquals(Optional.of(Duration.ofMinutes(10)), published.delayAfter(1, Duration.ofMinutes(10)));
        assertEquals(Optional.of(Duration.ofMinutes(1)), published.delayAfter(1, Duration.ofSeconds(5)));
        assertEquals(Optional.of(Duration.ofHours(24)), published.delayAfter(2, Duration.ofDays(30)));
        assertEquals(Optional.empty(), published.delayAfter(8, Duration.ofSeconds(1)));
    }

    @Test
    void anEmptyScheduleMeansOneAttempt() {
        RetrySchedule once = new RetrySchedule(List.of());
        assertEquals(1, once.maxAttempts());
        assertEquals(Optional.empty(), once.delayAfter(1));
    }

    @Test
    void jitterOnlyLengthensByAtMostTenPercent() {
        Duration d = Duration.ofMinutes(10);
        assertEquals(d, Jitter.apply(d, 0.0));
        assertTrue(Jitter.apply(d, 0.999).compareTo(Duration.ofMinutes(11)) < 0);
        assertTrue(Jitter.apply(d, 0.5).compareTo(d) > 0);
    }
}
