package dev.ledgerlink.web.console;

import dev.ledgerlink.delivery.DeliveryActivity;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The chart of attempts per minute by outcome over the last hour, as inline SVG geometry: one
 * stacked bar per minute (delivered at the bottom, then failed, then no response), a y axis with
 * a rounded maximum. Pure: the template only draws what this computes.
 */
public record DeliveryChart(List<Bar> bars, List<Tick> yTicks, List<Tick> xTicks, long delivered, long failed, long noResponse) {
    public static final int MINUTES = 60;
    public static final int WIDTH = 1100;
    public static final int HEIGHT = 220;
    public static final int LEFT = 44;
    public static final int BOTTOM = 24;
    public static final int TOP = 8;
    static final String[] OUTCOMES = {"delivered", "failed", "no_response"};

    /** One rectangle: {@code outcome} chooses its colour; {@code label} is its tooltip. */
    public record Bar(double x, double y, double width, double height, String outcome, String label) {
        public String cssClass() {
            return outcome.replace('_', '-');
        }
    }

    /** An axis label at a position; {@code anchor} is its SVG text-anchor (start, middle, end). */
    public record Tick(double position, String label, String anchor) {}

    public long total() {
        return delivered + failed + noResponse;
    }

    /** The hour ending at {@code now}'s minute (inclusive) from the database's per-minute counts. */
    public static DeliveryChart of(List<DeliveryActivity.MinuteCount> counts, Instant now) {
        Instant last = now.truncatedTo(ChronoUnit.MINUTES);
        Instant first = last.minus(Duration.ofMinutes(MINUTES - 1));
        long[][] perMinute = new long[MINUTES][OUTCOMES.length];
        long[] totals = new long[OUTCOMES.length];
        for (DeliveryActivity.MinuteCount c : counts) {
            int slot = (int) Duration.between(first, c.minute().truncatedTo(ChronoUnit.MINUTES)).toMinutes();
            int outcome = List.of(OUTCOMES).indexOf(c.outcome());
            if (slot < 0 || slot >= MINUTES || outcome < 0) continue;
            perMinute[slot][outcome] += c.attempts();
            totals[outcome] += c.attempts();
        }
        long max = 0;
        for (long[] m : perMinute) max = Math.max(max, m[0] + m[1] + m[2]);
        long scale = niceCeiling(max);
        double plotHeight = HEIGHT - TOP - BOTTOM;
        double slotWidth = (double) (WIDTH - LEFT) / MINUTES;
        List<Bar> bars = new ArrayList<>();
        for (int i = 0; i < MINUTES; i++) {
            double base = HEIGHT - BOTTOM;
            Instant minute = first.plus(Duration.ofMinutes(i));
            for (int o = 0; o < OUTCOMES.length; o++) {
                long n = perMinute[i][o];
                if (n == 0) continue;
                double h = n * plotHeight / scale;
                base -= h;
                bars.add(new Bar(LEFT + i * slotWidth + 1, base, slotWidth - 2, h, OUTCOMES[o],
                        Format.minute(minute) + " UTC: " + n + " " + OUTCOMES[o].replace('_', ' ')));
            }
        }
        List<Tick> y = List.of(new Tick(HEIGHT - BOTTOM, "0", "end"), new Tick(TOP + plotHeight / 2, Long.toString(scale / 2), "end"),
                new Tick(TOP, Long.toString(scale), "end"));
        List<Tick> x = new ArrayList<>();
        for (int i = 0; i < MINUTES; i += 15) {
            x.add(new Tick(LEFT + (i + 0.5) * slotWidth, Format.minute(first.plus(Duration.ofMinutes(i))), i == 0 ? "start" : "middle"));
        }
        x.add(new Tick(WIDTH, Format.minute(last) + " UTC", "end"));
        return new DeliveryChart(bars, y, x, totals[0], totals[1], totals[2]);
    }

    /** The smallest of 2, 4, 10, 20, 40, 100, ... not below {@code max} (at least 2, so the middle tick is whole). */
    static long niceCeiling(long max) {
        long unit = 1;
        while (true) {
            for (long m : new long[] {2, 4, 10}) {
                if (m * unit >= max) return m * unit;
            }
            unit *= 10;
        }
    }
}
