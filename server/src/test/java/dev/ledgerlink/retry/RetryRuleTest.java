package dev.ledgerlink.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.config.Setting;
import dev.ledgerlink.config.Settings;
import dev.ledgerlink.retry.RetryRule.Delivered;
import dev.ledgerlink.retry.RetryRule.Dropped;
import dev.ledgerlink.retry.RetryRule.Gone;
import dev.ledgerlink.retry.RetryRule.Next;
import dev.ledgerlink.retry.RetryRule.RetryAt;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What follows an attempt, table-driven and without a server: the published schedule (1 min, 5 min,
 * 30 min, 2 h, 6 h, 12 h, 24 h; eight attempts in all), the jitter's draw, and Retry-After.
 */
class RetryRuleTest {
    private static final RetryRule PUBLISHED = new RetryRule(new RetrySchedule(Settings.defaults().durations(Setting.DELIVERY_RETRY_SCHEDULE)));
    private static final Instant NOW = Instant.parse("2026-11-22T05:00:00Z");

    private static Next retryIn(Duration d) {
        return new RetryAt(NOW.plus(d));
    }

    static Stream<Arguments> outcomes() {
        return Stream.of(
                // attempt, status (null: no answer), Retry-After, jitter draw, what follows
                Arguments.of(1, 200, null, 0.5, new Delivered()),
                Arguments.of(8, 204, null, 0.5, new Delivered()),
                Arguments.of(3, 299, null, 0.0, new Delivered()),
                Arguments.of(1, 500, null, 0.0, retryIn(Duration.ofMinutes(1))),
                Arguments.of(1, null, null, 0.0, retryIn(Duration.ofMinutes(1))),
                Arguments.of(1, 199, null, 0.0, retryIn(Duration.ofMinutes(1))),
                Arguments.of(1, 300, null, 0.0, retryIn(Duration.ofMinutes(1))),
                Arguments.of(2, 302, null, 0.0, retryIn(Duration.ofMinutes(5))),
                Arguments.of(3, 404, null, 0.0, retryIn(Duration.ofMinutes(30))),
                Arguments.of(7, 503, null, 0.0, retryIn(Duration.ofHours(24))),
                // the jitter lengthens a wait by up to 10 %, never shortens it
                Arguments.of(1, 500, null, 0.5, retryIn(Duration.ofSeconds(63))),
                Arguments.of(4, null, null, 0.25, retryIn(Duration.ofMinutes(123))),
                // Retry-After on 429 and 503 (RetryAfter reads it): never sooner than asked, at most 24 h, jittered too
                Arguments.of(1, 429, Duration.ofMinutes(10), 0.0, retryIn(Duration.ofMinutes(10))),
                Arguments.of(1, 503, Duration.ofSeconds(5), 0.0, retryIn(Duration.ofMinutes(1))),
                Arguments.of(2, 429, Duration.ofDays(30), 0.0, retryIn(Duration.ofHours(24))),
                Arguments.of(1, 503, Duration.ofMinutes(10), 0.5, retryIn(Duration.ofMinutes(10).plusSeconds(30))),
                // the last attempt: dropped, whatever Retry-After asked
                Arguments.of(8, 500, null, 0.5, new Dropped("no success after 8 attempts")),
                Arguments.of(8, null, null, 0.0, new Dropped("no success after 8 attempts")),
                Arguments.of(8, 429, Duration.ofSeconds(1), 0.0, new Dropped("no success after 8 attempts")),
                // 410 Gone: no retry, on the first attempt as on the last
                Arguments.of(1, 410, null, 0.0, new Gone("the endpoint answered 410 Gone")),
                Arguments.of(8, 410, null, 0.0, new Gone("the endpoint answered 410 Gone")));
    }

    @ParameterizedTest(name = "attempt {0}, status {1}, Retry-After {2}, draw {3}: {4}")
    @MethodSource("outcomes")
    void whatFollowsAnAttempt(int attempt, Integer status, Duration retryAfter, double draw, Next expected) {
        assertEquals(expected, PUBLISHED.after(attempt, status, retryAfter, NOW, draw));
    }

    @ParameterizedTest(name = "status {0}")
    @MethodSource("statuses")
    void onlyA2xxSucceeds(Integer status, boolean succeeded) {
        assertEquals(succeeded, RetryRule.succeeded(status));
    }

    static Stream<Arguments> statuses() {
        return Stream.of(Arguments.of(null, false), Arguments.of(100, false), Arguments.of(199, false), Arguments.of(200, true),
                Arguments.of(201, true), Arguments.of(299, true), Arguments.of(300, false), Arguments.of(410, false), Arguments.of(503, false));
    }

    @ParameterizedTest(name = "no schedule, status {0}")
    @MethodSource("statuses")
    void withoutAScheduleAFailureIsDroppedAtOnce(Integer status, boolean succeeded) {
        Next next = new RetryRule(new RetrySchedule(java.util.List.of())).after(1, status, null, NOW, 0.9);
        if (succeeded) assertTrue(next instanceof Delivered, next.toString());
        else assertFalse(next instanceof RetryAt, next.toString());
    }
}
