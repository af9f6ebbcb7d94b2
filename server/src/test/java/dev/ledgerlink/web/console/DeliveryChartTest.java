package dev.ledgerlink.web.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ledgerlink.delivery.DeliveryActivity.MinuteCount;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeliveryChartTest {
    static final Instant NOW = Instant.parse("2026-11-22T20:30:42Z");

    @Test
    void barsStackPerMinuteDeliveredBelowFailedBelowNoResponse() {
        Instant minute = Instant.parse("2026-11-22T20:30:00Z");
        DeliveryChart chart = DeliveryChart.of(List.of(
                new MinuteCount(minute, "delivered", 6), new MinuteCount(minute, "failed", 2), new MinuteCount(minute, "no_response", 2)), NOW);
        assertEquals(3, chart.bars().size());
        assertEquals(List.of("delivered", "failed", "no_response"), chart.bars().stream().map(DeliveryChart.Bar::outcome).toList());
        DeliveryChart.Bar delivered = chart.bars().get(0), failed = chart.bars().get(1);
        assertEquals(DeliveryChart.HEIGHT - DeliveryChart.BOTTOM, delivered.y() + delivered.height(), 1e-9);
        assertEquals(delivered.y(), failed.y() + failed.height(), 1e-9);
        assertEquals(10, chart.total());
        assertEquals("10", chart.yTicks().getLast().label());
        assertTrue(delivered.label().startsWith("20:30 UTC: 6 delivered"), delivered.label());
    }

    @Test
    void theHourEndsWithTheCurrentMinuteAndOlderCountsAreLeftOut() {
        DeliveryChart chart = DeliveryChart.of(List.of(
                new MinuteCount(Instant.parse("2026-11-22T19:31:00Z"), "delivered", 1),
                new MinuteCount(Instant.parse("2026-11-22T19:30:00Z"), "delivered", 5)), NOW);
        assertEquals(1, chart.bars().size());
        assertEquals(DeliveryChart.LEFT + 1, chart.bars().getFirst().x(), 1e-9);
        assertEquals("19:31", chart.xTicks().getFirst().label());
        assertEquals("20:30 UTC", chart.xTicks().getLast().label());
        assertEquals(1, chart.delivered());
    }

    @Test
    void anEmptyHourDrawsNoBarsOnAWholeScale() {
        DeliveryChart chart = DeliveryChart.of(List.of(), NOW);
        assertTrue(chart.bars().isEmpty());
        assertEquals(List.of("0", "1", "2"), chart.yTicks().stream().map(DeliveryChart.Tick::label).toList());
    }

    @Test
    void scaleIsTheNextOfTwoFourTen() {
        assertEquals(2, DeliveryChart.niceCeiling(0));
        assertEquals(4, DeliveryChart.niceCeiling(3));
        assertEquals(10, DeliveryChart.niceCeiling(5));
        assertEquals(20, DeliveryChart.niceCeiling(11));
        assertEquals(100, DeliveryChart.niceCeiling(41));
        assertEquals(4000, DeliveryChart.niceCeiling(2001));
    }
}
