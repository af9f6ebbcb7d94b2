package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Retry-After parsing and the address rule of TargetGuard: pure, no network. */
class PolicyEdgesTest {
    private final Instant now = Instant.parse("2026-11-22T05:00:00Z");

    @Test
    void retryAfterIsReadOnlyOn429And503InSecondsOrAsAnHttpDate() {
        assertEquals(Duration.ofSeconds(120), RetryAfter.parse(429, "120", now));
        assertEquals(Duration.ofSeconds(30), RetryAfter.parse(503, "Sun, 22 Nov 2026 05:00:30 GMT", now));
        assertNull(RetryAfter.parse(500, "120", now));
        assertNull(RetryAfter.parse(429, "soon", now));
        assertNull(RetryAfter.parse(429, null, now));
        assertEquals(Duration.ZERO, RetryAfter.parse(503, "Sun, 22 Nov 2026 04:00:00 GMT", now));
    }

    @Test
    void onlyPublicAddressesAreAllowedOutsideDevMode() throws Exception {
        for (String inside : new String[] {"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0",
                "100.64.0.1", "224.0.0.1", "255.255.255.255", "::1", "fe80::1", "fc00::1", "fd12::1", "::ffff:127.0.0.1", "::"}) {
            assertFalse(TargetGuard.isPublic(InetAddress.getByName(inside)), inside);
        }
        for (String outside : new String[] {"93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"}) {
            assertTrue(TargetGuard.isPublic(InetAddress.getByName(outside)), outside);
        }
    }
}
