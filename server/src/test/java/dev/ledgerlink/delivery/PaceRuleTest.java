package dev.ledgerlink.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The pace of a callback as pure arithmetic (times in microseconds). */
class PaceRuleTest {
    private static final long SECOND = 1_000_000L;

    @Test
    void aQuietCallbackMaySendOneSecondsWorthAtOnceThenOneASlot() {
        PaceRule five = new PaceRule(5);
        long now = 100 * SECOND;
        PaceRule.Grant burst = five.take(0, now, 50);
        assertEquals(5, burst.granted());
        assertEquals(now + SECOND, burst.nextSlot());
        assertEquals(now + SECOND / 5, burst.nextDue(), "the sixth may go one slot later");

        PaceRule.Grant none = five.take(burst.nextSlot(), now + 1, 45);
        assertEquals(0, none.granted());
        assertEquals(burst.nextSlot(), none.nextSlot(), "nothing taken, nothing stored");
        assertEquals(now + SECOND / 5, none.nextDue());

        PaceRule.Grant one = five.take(burst.nextSlot(), now + SECOND / 5, 45);
        assertEquals(1, one.granted());
        assertEquals(now + SECOND + SECOND / 5, one.nextSlot());
    }

    @Test
    void wantingFewerThanTheBudgetTakesOnlyThoseAndLeavesTheRest() {
        PaceRule ten = new PaceRule(10);
        PaceRule.Grant two = ten.take(0, SECOND, 2);
        assertEquals(2, two.granted());
        assertEquals(SECOND, two.nextDue(), "budget left: the next may go now");
        assertEquals(0, ten.take(0, SECOND, 0).granted());
    }

    @Test
    void slotsAreRoundedUpSoTheLimitIsNeverExceeded() {
        assertEquals(333_334, new PaceRule(3).interval());
        assertEquals(SECOND, new PaceRule(1).interval());
        assertEquals(0, new PaceRule(1).tolerance(), "a limit of 1 a second has a burst of 1");
        assertEquals(100, new PaceRule(10_000).interval());
        assertThrows(IllegalArgumentException.class, () -> new PaceRule(0));
    }

    /** Greedy claimers at random moments, sharing one slot: in no window of w seconds do more than r·w + r go. */
    @Test
    void noWindowEverHoldsMoreThanTheRateTimesItsLengthPlusOneSecondsBurst() {
        Random random = new Random(42);
        for (int rate : new int[] {1, 3, 5, 50}) {
            PaceRule rule = new PaceRule(rate);
            long slot = 0;
            long now = 10 * SECOND;
            List<Long> sent = new ArrayList<>();
            while (now < 40 * SECOND) {
                PaceRule.Grant g = rule.take(slot, now, 1 + random.nextInt(2 * rate));
                for (int i = 0; i < g.granted(); i++) sent.add(now);
                slot = g.nextSlot();
                // Sometimes quiet for a while (the burst refills), mostly polling often.
                now += random.nextInt(10) == 0 ? random.nextInt((int) (3 * SECOND)) : random.nextInt((int) (SECOND / 10));
            }
            assertTrue(sent.size() > 10 * rate, "the rate is reached, not just kept under: " + sent.size());
            for (long w : new long[] {SECOND / 2, SECOND, 2 * SECOND, 5 * SECOND}) {
                int most = mostInAnyWindow(sent, w);
                assertTrue(most <= rate * w / SECOND + rate, rate + "/s, window " + w + " µs: " + most);
            }
        }
    }

    /** The most entries of a sorted list within any closed window [t, t + w]. */
    static int mostInAnyWindow(List<Long> times, long w) {
        int most = 0;
        int from = 0;
        for (int to = 0; to < times.size(); to++) {
            while (times.get(to) - times.get(from) > w) from++;
            most = Math.max(most, to - from + 1);
        }
        return most;
    }
}
