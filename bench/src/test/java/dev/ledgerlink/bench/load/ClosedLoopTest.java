package dev.ledgerlink.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The warm-up rule of every closed-loop figure: at least its least, then on while the JIT is busy,
 * never past its most; the window's own counting starts where the hook says. Bounds below are what
 * the rule guarantees by construction, never a speed.
 */
class ClosedLoopTest {

    @Test
    void aQuietJitEndsTheWarmUpAfterItsLeastAndIsAskedOnce() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        var warmup = new ClosedLoop.Warmup(Duration.ofMillis(200), Duration.ofSeconds(30), () -> {
            asked.incrementAndGet();
            return true;
        });
        ClosedLoop.Outcome o = ClosedLoop.run(2, warmup, () -> {}, Duration.ofMillis(200), Long.MAX_VALUE, i -> () -> true);
        assertEquals(1, asked.get(), "asked once, after the least");
        assertTrue(o.warmupSeconds() >= 0.2, "at least the least: " + o.warmupSeconds());
        assertTrue(o.ok() > 0);
    }

    @Test
    void aJitThatNeverSettlesIsWaitedForUntilTheMostAndNoLonger() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        var warmup = new ClosedLoop.Warmup(Duration.ofMillis(200), Duration.ofMillis(1200), () -> {
            asked.incrementAndGet();
            return false;
        });
        ClosedLoop.Outcome o = ClosedLoop.run(2, warmup, () -> {}, Duration.ofMillis(200), Long.MAX_VALUE, i -> () -> true);
        assertTrue(o.warmupSeconds() >= 1.2, "went on to the most: " + o.warmupSeconds());
        assertTrue(asked.get() >= 1, "asked after the least");
    }

    @Test
    void theWindowCountsOnlyWhatFollowsTheHook() throws Exception {
        AtomicBoolean windowOpen = new AtomicBoolean();
        AtomicLong inWindow = new AtomicLong();
        AtomicInteger hooks = new AtomicInteger();
        var warmup = new ClosedLoop.Warmup(Duration.ofMillis(200), Duration.ofMillis(200), () -> true);
        ClosedLoop.Outcome o = ClosedLoop.run(3, warmup, () -> {
            hooks.incrementAndGet();
            windowOpen.set(true);
        }, Duration.ofMillis(300), Long.MAX_VALUE, i -> () -> {
            if (windowOpen.get()) inWindow.incrementAndGet();
            return true;
        });
        assertEquals(1, hooks.get());
        assertEquals(inWindow.get(), o.ok(), "every counted request came after the hook, and every one after it was counted");
    }
}
