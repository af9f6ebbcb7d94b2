package dev.ledgerlink.sandbox;

import dev.ledgerlink.errors.ServiceException;
import dev.ledgerlink.store.ServiceClock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The sandbox's movable clock (development mode only; decisions.md "Development mode"): moved
 * forward by a duration, set to an instant not before real time, or put back to real time. Every
 * time rule reads the {@link ServiceClock}, which adds this offset; it is kept in the database, so
 * every process of the sandbox (other servers, the CLI) follows within a quarter of a second. The
 * HTTP routes, the CLI and the JUnit extension all move it through here.
 */
public final class SandboxClock {
    /** How far the clock may be moved ahead of real time in all: far beyond any lifetime or period of the service. */
    public static final Duration MAX_OFFSET = Duration.ofDays(36_500);

    /** The sandbox's time, and how far it is ahead of real time (zero: real time). */
    public record Reading(Instant now, Duration offset) {}

    private final ServiceClock clock;

    public SandboxClock(ServiceClock clock) {
        this.clock = clock;
    }

    /** The clock as every process of the sandbox reads it (re-read from the database, so another process's move shows at once). */
    public Reading read() {
        requireSandbox();
        clock.readSandbox();
        return reading();
    }

    /** Moves the clock forward by {@code text}, an ISO-8601 duration (PT13H, P5D); 422 on {@code advance} otherwise. */
    public Reading advance(String text) {
        return advance(duration(text));
    }

    public Reading advance(Duration by) {
        if (by == null || by.isNegative() || by.isZero()) throw ServiceException.invalid("advance", "must be a positive duration");
        requireSandbox();
        Duration current = clock.stored().offset();
        if (by.compareTo(MAX_OFFSET.minus(current)) > 0) {
            throw ServiceException.invalid("advance", "would move the clock more than " + MAX_OFFSET.toDays() + " days ahead of real time");
        }
        clock.addToSandboxOffset(by);
        return reading();
    }

    /** Sets the clock to {@code text}, an ISO-8601 instant (2027-01-01T00:00:00Z) not before real time; 422 on {@code set} otherwise. */
    public Reading set(String text) {
        if (text == null || text.isBlank()) throw ServiceException.invalid("set", "must be an ISO-8601 instant, for example 2027-01-01T00:00:00Z");
        Instant at;
        try {
            at = Instant.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw ServiceException.invalid("set", "must be an ISO-8601 instant in UTC, for example 2027-01-01T00:00:00Z");
        }
        return set(at);
    }

    public Reading set(Instant at) {
        requireSandbox();
        Duration offset = Duration.between(clock.realNow(), at);
        if (offset.isNegative()) throw ServiceException.invalid("set", "must not be before real time (" + clock.realNow() + "); the clock moves forward only");
        if (offset.compareTo(MAX_OFFSET) > 0) throw ServiceException.invalid("set", "must be within " + MAX_OFFSET.toDays() + " days of real time");
        clock.storeSandboxOffset(offset);
        return reading();
    }

    /** Back to real time. */
    public Reading reset() {
        requireSandbox();
        clock.storeSandboxOffset(Duration.ZERO);
        return reading();
    }

    private Reading reading() {
        return new Reading(clock.instant(), clock.sandboxOffset());
    }

    private static Duration duration(String text) {
        if (text == null || text.isBlank()) throw ServiceException.invalid("advance", "must be an ISO-8601 duration, for example PT13H or P5D");
        try {
            return Duration.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw ServiceException.invalid("advance", "must be an ISO-8601 duration of days, hours, minutes or seconds, for example PT13H or P5D");
        }
    }

    /**
     * Development mode only: a production server never builds the routes; the CLI works on a
     * database only while a development-mode server has marked it as a sandbox.
     */
    private void requireSandbox() {
        if (!clock.sandboxed() || !clock.stored().development()) {
            throw ServiceException.of(ServiceException.Kind.CONFLICT, "The sandbox clock exists in development mode only: this database "
                    + "is not a sandbox (start the server with serve --dev on it).");
        }
    }
}
