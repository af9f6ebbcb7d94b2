package dev.ledgerlink.events;

import dev.ledgerlink.store.DbTime;
import dev.ledgerlink.errors.Validation;
import dev.ledgerlink.store.Constraints;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Publishing: stores an event and fans it out to its subscribers in one transaction, so the event
 * is acknowledged only once it and every delivery it causes are durable. Same operation for the
 * internal HTTP endpoint, the Java API and the CLI.
 */
public final class EventPublisher {
    static final int MAX_IDEMPOTENCY_KEY = 200;

    private final Jdbi jdbi;
    private final Clock clock;
    private final FanOut fanOut;
    private final Runnable afterQueued;

    /** @param afterQueued runs after a commit that queued deliveries (wakes this process's engine) */
    public EventPublisher(Jdbi jdbi, Clock clock, FanOut fanOut, Runnable afterQueued) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.fanOut = fanOut;
        this.afterQueued = afterQueued;
    }

    /** What a publisher says happened. {@code idempotencyKey} may be null; a repeat with the same key is a no-op. */
    public record Request(String name, String accountId, Long objectId, Long userId, String idempotencyKey) {}

    public Event publish(Request r) {
        new Validation()
                .check(EventCatalog.isEvent(r.name()), "name", "must be an event of the catalog, noun.verb (for example invoice.create)")
                .check(r.accountId() != null && !r.accountId().isBlank(), "account_id", "is required")
                .check(r.objectId() != null && r.objectId() > 0, "object_id", "must be a positive integer")
                .check(r.userId() != null && r.userId() > 0, "user_id", "must be a positive integer")
                .check(r.idempotencyKey() == null || (!r.idempotencyKey().isBlank() && r.idempotencyKey().length() <= MAX_IDEMPOTENCY_KEY),
                        "Idempotency-Key", "must be 1 to " + MAX_IDEMPOTENCY_KEY + " characters")
                .throwIfInvalid();
        if (r.idempotencyKey() != null) {
            Optional<Event> earlier = findByIdempotencyKey(r.idempotencyKey());
            if (earlier.isPresent()) return earlier.get();
        }
        Event event;
        try {
            event = jdbi.inTransaction(h -> store(h, r));
        } catch (RuntimeException e) {
            // Two publishes with one key raced: the other committed first, so this one is its retry.
            if (r.idempotencyKey() != null && Constraints.isUniqueViolation(e)) {
                return findByIdempotencyKey(r.idempotencyKey()).orElseThrow(() -> e);
            }
            throw e;
        }
        if (event.deliveries() > 0) afterQueued.run();
        return event;
    }

    private Event store(Handle h, Request r) {
        boolean accountExists = h.createQuery("select count(*) from accounts where account_id = :a")
                .bind("a", r.accountId()).mapTo(Integer.class).one() > 0;
        if (!accountExists) new Validation().add("account_id", "is not a known account").throwIfInvalid();
        Instant now = DbTime.now(clock);
        long id = h.createUpdate("""
                        insert into events (account_id, name, object_id, user_id, idempotency_key, created_at)
                        values (:accountId, :name, :objectId, :userId, :key, :now)""")
                .bind("accountId", r.accountId()).bind("name", r.name()).bind("objectId", r.objectId())
                .bind("userId", r.userId()).bind("key", r.idempotencyKey()).bind("now", now)
                .executeAndReturnGeneratedKeys("id").mapTo(Long.class).one();
        int fannedOut = fanOut.queue(h, id, r.accountId(), r.name(), EventCatalog.nounOf(r.name()), now);
        return new Event(id, r.name(), r.accountId(), r.objectId(), r.userId(), now, fannedOut);
    }

    public Optional<Event> findByIdempotencyKey(String key) {
        return jdbi.withHandle(h -> h.createQuery("""
                        select e.id, e.name, e.account_id, e.object_id, e.user_id, e.created_at,
                               (select count(*) from deliveries d where d.event_id = e.id and d.kind = 'event') as deliveries
                        from events e where e.idempotency_key = :key""")
                .bind("key", key)
                .map((rs, ctx) -> new Event(rs.getLong("id"), rs.getString("name"), rs.getString("account_id"),
                        rs.getLong("object_id"), rs.getLong("user_id"),
                        ctx.findColumnMapperFor(Instant.class).orElseThrow().map(rs, "created_at", ctx), rs.getInt("deliveries")))
                .findOne());
    }
}
