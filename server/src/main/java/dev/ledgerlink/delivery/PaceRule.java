package dev.ledgerlink.delivery;

/**
 * A callback's pace (docs/delivery.md "Pace"), as GCRA over one "next slot" the nodes share: a limit
 * of r deliveries a second gives a slot every 1/r s (rounded up to the microsecond, so never faster);
 * after a quiet spell a burst of r (one second's worth) may go at once. In any window of w seconds at
 * most r·w + r deliveries start. Pure: times are microseconds since the epoch; {@link DeliveryPace}
 * reads and advances the slot in the database.
 */
record PaceRule(int perSecond) {
    private static final long MICROS = 1_000_000L;

    PaceRule {
        if (perSecond < 1) throw new IllegalArgumentException("a pace is at least 1 a second, got " + perSecond);
    }

    /** Microseconds between two slots. */
    long interval() {
        return (MICROS + perSecond - 1) / perSecond;
    }

    /** How far ahead of now slots may be taken: the burst's length less one slot. */
    long tolerance() {
        return (perSecond - 1) * interval();
    }

    /**
     * What taking up to {@code wanted} slots at {@code now} gives, the callback's next free slot being
     * {@code slot} (in the past when it has been quiet).
     */
    Grant take(long slot, long now, int wanted) {
        long start = Math.max(slot, now);
        long latest = now + tolerance();
        if (wanted <= 0 || start > latest) return new Grant(0, slot, Math.max(now, start - tolerance()));
        int granted = (int) Math.min(wanted, (latest - start) / interval() + 1);
        long next = start + granted * interval();
        return new Grant(granted, next, Math.max(now, next - tolerance()));
    }

    /**
     * @param granted  how many may be sent now
     * @param nextSlot the slot to store (unchanged when none is granted)
     * @param nextDue  when the next delivery may go: its turn, for those that must wait
     */
    record Grant(int granted, long nextSlot, long nextDue) {}
}
