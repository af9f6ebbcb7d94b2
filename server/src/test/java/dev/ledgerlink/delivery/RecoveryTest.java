package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ledgerlink.config.ConfigurationException;
import dev.ledgerlink.errors.ServiceException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The recover rule as pure code: the window a request names and the pacing of what it re-queues. */
class RecoveryTest {
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    private final Recovery recovery = new Recovery(Duration.ofMillis(200), Duration.ofDays(30));

    @Test
    void untilDefaultsToNowAndOffsetsAreHonoured() {
        assertEquals(new Recovery.Window(Instant.parse("2026-11-20T13:00:00Z"), NOW), recovery.window("2026-11-20T08:00:00-05:00", null, NOW));
        assertEquals(new Recovery.Window(Instant.parse("2026-11-20T08:00:00Z"), Instant.parse("2026-11-21T08:00:00Z")),
                recovery.window(" 2026-11-20T08:00:00Z", "2026-11-21T08:00:00Z", NOW));
    }

    @Test
    void theNthDeliveryFallsDueNSpacingsAfterTheRecover() {
        assertEquals(NOW, recovery.dueAt(NOW, 0));
        assertEquals(NOW.plusMillis(200), recovery.dueAt(NOW, 1));
        assertEquals(NOW.plusSeconds(200), recovery.dueAt(NOW, 1000), "1,000 deliveries spread over 200 s at 5 per second");
        assertEquals(NOW, new Recovery(Duration.ZERO, Duration.ofDays(1)).dueAt(NOW, 50), "spacing 0: all at once");
    }

    @Test
    void eachBadWindowNamesItsField() {
        assertField("since", null, null);
        assertField("since", "", "2026-11-21T08:00:00Z");
        assertField("since", "2026-11-20", null);
        assertField("since", "2026-11-20T08:00:00", null);          // no offset: ambiguous
        assertField("since", "yesterday", null);
        assertField("until", "2026-11-20T08:00:00Z", "tomorrow");
        assertField("since", "2026-11-21T08:00:00Z", "2026-11-21T08:00:00Z");   // empty window
        assertField("since", "2026-11-21T08:00:00Z", "2026-11-20T08:00:00Z");   // reversed
        assertField("until", "2026-09-01T00:00:00Z", "2026-11-01T00:00:00Z");   // longer than 30 days
        assertField("since", "1969-12-31T23:59:59Z", "1970-01-01T00:00:01Z");   // before what both databases hold
        assertField("since", "+99999-01-01T00:00:00Z", "+99999-01-02T00:00:00Z");
    }

    @Test
    void theSettingsAreCheckedAtTheDoor() {
        assertThrows(ConfigurationException.class, () -> new Recovery(Duration.ofMillis(-1), Duration.ofDays(1)));
        assertThrows(ConfigurationException.class, () -> new Recovery(Duration.ZERO, Duration.ZERO));
    }

    private void assertField(String field, String since, String until) {
        ServiceException e = assertThrows(ServiceException.class, () -> recovery.window(since, until, NOW), since + ".." + until);
        assertEquals(ServiceException.Kind.INVALID_FIELD, e.kind());
        assertEquals(field, e.violations().getFirst().field(), e.getMessage());
    }
}
