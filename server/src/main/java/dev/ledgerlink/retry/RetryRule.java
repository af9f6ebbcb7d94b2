package dev.ledgerlink.retry;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What follows one attempt to send a webhook, a delivery to a callback or an operator notification:
 * the one rule, pure (no clock, no randomness: {@code now} and the jitter's draw are parameters).
 * <ul>
 * <li>A 2xx is a success: {@link Delivered}. Nothing else is ({@link #succeeded}): a 3xx, a 4xx, a
 *     5xx and no answer at all (status null: timeout, refused connection, refused address) fail.</li>
 * <li>A 410 Gone ends the message at once, without retries ({@link Gone}): the receiver says the
 *     endpoint will never come back (the Standard Webhooks recommendation). What else follows (a
 *     callback disabled) is the callbacks capability's rule, callbacks.FailureRuns.</li>
 * <li>Any other failure is tried again after the {@link RetrySchedule}'s wait for that attempt,
 *     lengthened by {@link Jitter}, and never sooner than a 429's or 503's Retry-After asked (at
 *     most 24 hours; it adds no attempts): {@link RetryAt}.</li>
 * <li>After the schedule's last wait the message is dropped: {@link Dropped}.</li>
 * </ul>
 */
public record RetryRule(RetrySchedule schedule) {

    /** What follows an attempt. */
    public sealed interface Next permits Delivered, RetryAt, Dropped, Gone {}

    /** The attempt succeeded. */
    public record Delivered() implements Next {}

    /** The attempt failed; the next one falls due at {@code at}. */
    public record RetryAt(Instant at) implements Next {}

    /** The attempt failed and was the last the schedule allows. */
    public record Dropped(String reason) implements Next {}

    /** The endpoint answered 410 Gone: no retry. */
    public record Gone(String reason) implements Next {}

    /** Whether an attempt answered {@code status} (null: no answer) succeeded: a 2xx, and only a 2xx. */
    public static boolean succeeded(Integer status) {
        return status != null && status >= 200 && status < 300;
    }

    /**
     * @param attempt the attempt just made, 1 for the first
     * @param status its answer's status, null when none came
     * @param retryAfter what the receiver's Retry-After asked ({@link RetryAfter}), null when nothing
     * @param now when the outcome is decided; a retry's wait starts here
     * @param random a draw in [0, 1) for the jitter
     */
    public Next after(int attempt, Integer status, Duration retryAfter, Instant now, double random) {
        if (succeeded(status)) return new Delivered();
        if (status != null && status == 410) return new Gone("the endpoint answered 410 Gone");
        Optional<Duration> wait = schedule.delayAfter(attempt, retryAfter);
        if (wait.isEmpty()) return new Dropped("no success after " + attempt + " attempts");
        return new RetryAt(now.plus(Jitter.apply(wait.get(), random)));
    }
}
