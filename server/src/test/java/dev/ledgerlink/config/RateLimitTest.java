package dev.ledgerlink.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What a rate limit may be, as the setting, the admin API and the CLI read it. */
class RateLimitTest {

    @Test
    void aWholeNumberFromOneToTenThousandOrNone() {
        assertEquals(5, RateLimit.parse("5"));
        assertEquals(10_000, RateLimit.parse(" 10000 "));
        assertNull(RateLimit.parse("none"));
        assertNull(RateLimit.parse("NONE"));
        assertNull(RateLimit.parse(""));
        assertNull(RateLimit.parse(null));
        for (String bad : new String[] {"0", "-1", "10001", "2.5", "5/s", "fast", "99999999999999"}) {
            var e = assertThrows(IllegalArgumentException.class, () -> RateLimit.parse(bad), bad);
            assertEquals(RateLimit.RULE, e.getMessage());
        }
        assertEquals("none", RateLimit.text(null));
        assertEquals("7", RateLimit.text(7));
    }

    @Test
    void theSettingIsEmptyByDefaultAndABadOneStopsTheStartNamingIt() {
        assertNull(DeliverySettings.from(Settings.defaults()).rateLimit());
        assertEquals(5, DeliverySettings.from(Settings.defaults().with(Setting.DELIVERY_RATE_LIMIT, "5")).rateLimit());
        var e = assertThrows(ConfigurationException.class,
                () -> DeliverySettings.from(Settings.defaults().with(Setting.DELIVERY_RATE_LIMIT, "0")));
        assertTrue(e.getMessage().startsWith("delivery.rate-limit must be a whole number"), e.getMessage());
    }
}
