package dev.ledgerlink.delivery;

import dev.ledgerlink.callbacks.EventReceivers;
import dev.ledgerlink.errors.Causes;
import dev.ledgerlink.store.PlainJdbc;
import io.micrometer.core.instrument.Counter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Keeps each paced callback to its rate limit (docs/delivery.md "Pace"), between a claim (or a
 * publish's hand-off) and the sends: of a paced callback's leased deliveries, as many go as its
 * {@link PaceRule} allows now; the others go back to the queue unleased, due at their turn. That is
 * not an attempt: no attempt row, no failure run, nothing toward disabling. The budget is one row per
 * callback (callback_pace) advanced by a conditional update on the value read, so every node sharing
 * the database spends the same one; nothing is locked across a send. Deliveries to callbacks without
 * a limit (none of their own, no delivery.rate-limit) never reach the database here.
 *
 * <p>Turns: the deliveries that wait are spread one slot apart after the callback's next free slot,
 * and after those this process already sent to wait, so a backlog is not claimed again at every slot.
 * A turn is a hint, not a reservation: when another node spent that slot meanwhile, the delivery just
 * waits for another turn.
 */
final class DeliveryPace {
    /** Conditional updates lost to other nodes before this pass gives up a callback's slots for now. */
    private static final int TAKE_TRIES = 5;
    private static final int MAX_REMEMBERED = 4096;
    /** Unique key (another node made the row first) or foreign key (the callback was deleted meanwhile). */
    private static final Set<String> ROW_RACE = Set.of("23505", "23503");

    private final Integer defaultLimit;
    private final Counter paced;
    /** Per callback, the last turn this process gave a waiting delivery, at that pace. */
    private final Map<Long, Turn> lastTurns = new ConcurrentHashMap<>();

    private record Turn(int perSecond, long at) {}

    /** @param defaultLimit delivery.rate-limit, null for none; @param paced counts the deliveries sent back to wait */
    DeliveryPace(Integer defaultLimit, Counter paced) {
        this.defaultLimit = defaultLimit;
        this.paced = paced;
    }

    /** The callback's limit: its own, else the setting's; null for none. */
    private Integer limitOf(ClaimedDelivery d) {
        return d.rateLimit() != null ? d.rateLimit() : defaultLimit;
    }

    /**
     * The deliveries that may be sent now, in their order. The others, leased to {@code token}, go back
     * to the queue due at their turn: paced ones beyond their callback's budget, and those beyond
     * {@code room} (how many more of a callback this process may start now), which would otherwise
     * spend slots they cannot use.
     */
    List<ClaimedDelivery> admit(Jdbi jdbi, List<ClaimedDelivery> leased, String token, Instant now, ToIntFunction<Long> room) {
        Map<Long, List<ClaimedDelivery>> byCallback = new LinkedHashMap<>();
        for (ClaimedDelivery d : leased) {
            // Only what is to be sent takes a slot: the engine holds a re-keying callback's deliveries, drops a disabled one's.
            boolean sending = d.isVerification() || EventReceivers.sendsNow(d.callbackState());
            if (sending && limitOf(d) != null) byCallback.computeIfAbsent(d.callbackId(), k -> new ArrayList<>()).add(d);
        }
        if (byCallback.isEmpty()) return leased;
        long nowMicros = micros(now);
        Set<Long> waiting = new HashSet<>();
        Map<Long, Instant> turns = new LinkedHashMap<>();
        jdbi.useHandle(h -> {
            for (var e : byCallback.entrySet()) {
                List<ClaimedDelivery> ds = e.getValue();
                PaceRule rule = new PaceRule(limitOf(ds.get(0)));
                PaceRule.Grant g = take(h, e.getKey(), rule, nowMicros, Math.min(ds.size(), Math.max(0, room.applyAsInt(e.getKey()))));
                if (g.granted() == ds.size()) continue;
                long first = firstTurn(e.getKey(), rule, g.nextDue(), nowMicros);
                for (int i = g.granted(); i < ds.size(); i++) {
                    long at = first + (i - g.granted()) * rule.interval();
                    turns.put(ds.get(i).id(), Instant.EPOCH.plus(at, ChronoUnit.MICROS));
                    waiting.add(ds.get(i).id());
                    lastTurns.put(e.getKey(), new Turn(rule.perSecond(), at));
                }
            }
            if (!turns.isEmpty()) DeliveryStore.defer(h, turns, token);
            paced.increment(turns.size());
        });
        if (lastTurns.size() > MAX_REMEMBERED) lastTurns.values().removeIf(t -> t.at() < nowMicros);
        return waiting.isEmpty() ? leased : leased.stream().filter(d -> !waiting.contains(d.id())).toList();
    }

    /** The first turn for the callback's waiting deliveries: its next due slot, or after the turns this process gave already. */
    private long firstTurn(long callbackId, PaceRule rule, long nextDue, long now) {
        Turn last = lastTurns.get(callbackId);
        if (last == null || last.perSecond() != rule.perSecond() || last.at() < now) return nextDue;
        return Math.max(nextDue, last.at() + rule.interval());
    }

    /** Takes up to {@code wanted} of the callback's slots: read, then a conditional update on the value read. */
    private static PaceRule.Grant take(Handle h, long callbackId, PaceRule rule, long now, int wanted) {
        for (int i = 0; i < TAKE_TRIES; i++) {
            Optional<Long> slot = PlainJdbc.queryOne(h, DeliveryStore.PACE_SLOT, p -> p.set("callbackId", callbackId), r -> r.getLong(1));
            if (slot.isEmpty()) {
                addRow(h, callbackId, now);
                continue;
            }
            PaceRule.Grant g = rule.take(slot.get(), now, wanted);
            if (g.granted() == 0) return g;
            int taken = PlainJdbc.update(h, DeliveryStore.PACE_TAKE, p -> p.set("slot", g.nextSlot()).set("callbackId", callbackId).set("read", slot.get()));
            if (taken == 1) return g;
        }
        // Other nodes kept taking this callback's slots first: they are being spent; try again a slot later.
        return new PaceRule.Grant(0, now, now + rule.interval());
    }

    /** A callback's first paced delivery: its row, with the whole burst free. */
    private static void addRow(Handle h, long callbackId, long now) {
        try {
            PlainJdbc.update(h, DeliveryStore.PACE_ADD, p -> p.set("callbackId", callbackId).set("slot", now));
        } catch (RuntimeException e) {
            if (!Causes.hasSqlState(e, ROW_RACE)) throw e;
        }
    }

    private static long micros(Instant t) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, t);
    }
}
