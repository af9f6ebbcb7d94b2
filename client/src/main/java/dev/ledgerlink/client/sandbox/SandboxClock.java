package dev.ledgerlink.client.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The sandbox's movable clock (docs/sandbox.md, "Clock"), the one every rule reads: token and code
 * lifetimes, the refresh replay window, retries, disabling, retention. It moves forward only, and
 * back to real time with {@link #reset()}; a retry a move made due is sent at once. It belongs to the
 * sandbox, not to a test: a sandbox shared by several tests is put back between them.
 *
 * <pre>{@code
 * sandbox.clock().advance(Duration.ofHours(12).plusMinutes(1));   // the access token is now refused
 * sandbox.clock().reset();
 * }</pre>
 */
public final class SandboxClock {
    /** The sandbox's time, and how far it is ahead of real time (zero: real time). */
    public record Reading(Instant now, Duration offset) {}

    private final SandboxHttp http;

    SandboxClock(SandboxHttp http) {
        this.http = http;
    }

    public Reading read() {
        return reading(http.get("/sandbox/v1/clock"));
    }

    /** Forward by a positive duration of days, hours, minutes or seconds. */
    public Reading advance(Duration by) {
        return reading(http.post("/sandbox/v1/clock", Map.of("advance", by.toString())));
    }

    /** To an instant, not before real time. */
    public Reading set(Instant at) {
        return reading(http.post("/sandbox/v1/clock", Map.of("set", at.toString())));
    }

    /** Back to real time. */
    public Reading reset() {
        return reading(http.delete("/sandbox/v1/clock"));
    }

    private static Reading reading(JsonNode n) {
        return new Reading(Instant.parse(n.path("now").asText()), Duration.parse(n.path("offset").asText()));
    }
}
